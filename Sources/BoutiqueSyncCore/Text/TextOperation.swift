/// One edit of a ``CollaborativeText``, made by one replica and applied by every other: a run of
/// inserted characters, or the deletion of characters its writer saw.
///
/// ```swift
/// var phone = CollaborativeText()
/// let typed = try phone.insert("Hello", at: 0, by: "phone")   // one operation for the whole run
/// var laptop = CollaborativeText()
/// try laptop.apply(typed)                                      // laptop.text == "Hello"
/// ```
///
/// Operations may arrive in any order and more than once: a repeat changes nothing, and one whose
/// dependencies (its writer's earlier operations, the characters it is anchored to or deletes) have not
/// arrived waits in the text until they do.
public enum TextOperation: Hashable, Sendable {
    /// Characters typed together, at one place.
    case insert(TextInsertion)
    /// Characters removed together.
    case delete(TextDeletion)

    /// The id of the operation's first counter.
    public var id: TextElementID {
        switch self {
        case .insert(let insertion): insertion.id
        case .delete(let deletion): deletion.id
        }
    }

    /// How many of its writer's counters the operation takes: one per inserted character, one per
    /// deletion.
    public var counterCount: Int {
        switch self {
        case .insert(let insertion): insertion.scalars.count
        case .delete: 1
        }
    }
}

/// Which side of its parent a run of inserted characters hangs on, in the sequence's tree.
public enum TextSide: UInt8, Hashable, Sendable {
    /// Before the parent (and its other left children).
    case left = 0
    /// After the parent.
    case right = 1
}

/// A run of characters one replica inserted at one place: the first is anchored to a character that
/// replica saw (its parent in the sequence's tree), each next one follows the one before.
///
/// ```swift
/// let insertion = TextInsertion(id: TextElementID(replica: "a", counter: 0), text: "hi",
///                               parent: nil, side: .right, rightOrigin: nil)   // "hi" in an empty text
/// ```
public struct TextInsertion: Hashable, Sendable {
    /// The id of the first character; the others follow with consecutive counters.
    public var id: TextElementID
    /// The characters, as Unicode scalars.
    public var scalars: [Unicode.Scalar]
    /// The character the run hangs from; `nil` for the start of the text.
    public var parent: TextElementID?
    /// Which side of ``parent`` the run hangs on (always ``TextSide/right`` at the start of the text).
    public var side: TextSide
    /// For a run on the right of its parent, the character that followed the parent when the run was
    /// typed (`nil` for the end of the text): concurrent runs after one parent are ordered by it, which
    /// keeps runs typed at the same place from interleaving.
    public var rightOrigin: TextElementID?

    /// A run given as scalars.
    public init(id: TextElementID, scalars: [Unicode.Scalar], parent: TextElementID?, side: TextSide, rightOrigin: TextElementID?) {
        self.id = id
        self.scalars = scalars
        self.parent = parent
        self.side = side
        self.rightOrigin = rightOrigin
    }

    /// A run given as a string.
    public init(id: TextElementID, text: String, parent: TextElementID?, side: TextSide, rightOrigin: TextElementID?) {
        self.init(id: id, scalars: Array(text.unicodeScalars), parent: parent, side: side, rightOrigin: rightOrigin)
    }

    /// The inserted text.
    public var text: String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        return String(view)
    }
}

/// The deletion of characters, named by id: only the characters its writer saw, so text inserted
/// concurrently in the deleted range survives.
///
/// ```swift
/// let deletion = try text.delete(0..<5, by: "phone")   // .delete(TextDeletion(id: …, ranges: […]))
/// ```
public struct TextDeletion: Hashable, Sendable {
    /// The deletion's own id (one counter of its writer).
    public var id: TextElementID
    /// The deleted characters: runs of consecutive counters of one replica.
    public var ranges: [TextElementRange]

    /// A deletion of the characters in `ranges`.
    public init(id: TextElementID, ranges: [TextElementRange]) {
        self.id = id
        self.ranges = ranges
    }
}

/// Consecutive characters one replica inserted: `count` counters from `start`.
///
/// ```swift
/// let range = TextElementRange(start: TextElementID(replica: "a", counter: 4), count: 3)   // 4, 5 and 6
/// ```
public struct TextElementRange: Hashable, Sendable {
    /// The first character.
    public var start: TextElementID
    /// How many characters, at least one.
    public var count: Int

    /// The `count` characters from `start`.
    public init(start: TextElementID, count: Int) {
        self.start = start
        self.count = count
    }
}
