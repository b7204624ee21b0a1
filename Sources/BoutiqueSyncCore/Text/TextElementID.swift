/// The identity of one character of a ``CollaborativeText``: the replica that inserted it and that
/// replica's counter, which it advances by one per character it inserts (and per deletion it makes).
///
/// ```swift
/// let first = TextElementID(replica: "phone", counter: 0)
/// let next = TextElementID(replica: "phone", counter: 1)   // the next character "phone" typed
/// first < next
/// ```
///
/// A run of characters one replica typed has consecutive counters, so a run is named by its first id
/// and its length: the metadata of text one writer typed stays small. Ids are ordered by replica id
/// (the byte order ``SyncStamp`` uses to break ties), then counter; the order only breaks ties
/// between concurrent inserts at the same place, the same way everywhere.
public struct TextElementID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The replica that inserted the character (the same id its ``SyncStamp``s carry).
    public var replica: String
    /// The replica's counter when it inserted the character.
    public var counter: Int

    /// The id of the character `replica` inserted at `counter`.
    public init(replica: String, counter: Int) {
        self.replica = replica
        self.counter = counter
    }

    /// Orders by replica id, then counter.
    public static func < (lhs: Self, rhs: Self) -> Bool {
        if lhs.replica != rhs.replica { return MergeOrder.replicaPrecedes(lhs.replica, rhs.replica) }
        return lhs.counter < rhs.counter
    }

    /// `counter@replica`.
    public var description: String { "\(counter)@\(replica)" }
}
