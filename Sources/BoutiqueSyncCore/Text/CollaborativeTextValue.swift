import BoutiqueSQLite

/// How a collaborative text column's value travels and is kept by sync: a blob that says it is one,
/// holding either operations (what a push carries and the server's log keeps, so that a pull
/// carries them on) or a whole ``CollaborativeText`` state (what a row's merge state keeps, and so
/// what a snapshot page or a refusal sends).
///
/// ```swift
/// let pushed = CollaborativeTextValue.operations(try note.replaceText(with: body, by: replica)).value
/// let shown = CollaborativeTextValue.shown(cell.value)   // .text(the merged string)
/// ```
///
/// Layout: the 4 bytes `00 42 54 58`, a kind byte (1 operations, 2 state), then for operations one
/// SQLite record of blobs, each a ``TextOperation/record()``, and for a state its
/// ``CollaborativeText/record()``. The leading zero byte keeps the prefix out of any text's UTF-8, and
/// a blob without it is an ordinary value.
///
/// Cells whose values are these merge by the text's merge instead of last-writer-wins
/// (``CellRegister/merge(_:_:)``): the result holds both sides, stamped with the later stamp. An
/// older plain value meeting one (a row written before its column was collaborative) is read as text
/// typed by a writer named after its stamp, the same on every replica, so that each side starts from
/// the same characters.
package enum CollaborativeTextValue: Sendable {
    /// Edits one writer made in one transaction.
    case operations([TextOperation])
    /// A replica's whole state.
    case state(CollaborativeText)

    static let prefix: [UInt8] = [0x00, 0x42, 0x54, 0x58]

    /// What a replica keeps of a text it knows it lost (what it held built on edits no other replica
    /// will get) until a snapshot brings the merged text: a value that says it is collaborative text
    /// and does not read. Like a text damaged on disk, it never wins over one that reads, and an edit
    /// made meanwhile is not diffed against it (it is refused and reported).
    package static let awaitingSnapshot = DatabaseValue.blob(prefix + [0])

    /// Whether `value` is a blob that says it is a collaborative text value (well formed or not).
    package static func isEncoded(_ value: DatabaseValue) -> Bool {
        guard case .blob(let bytes) = value, bytes.count > prefix.count else { return false }
        return bytes[0] == prefix[0] && bytes[1] == prefix[1] && bytes[2] == prefix[2] && bytes[3] == prefix[3]
    }

    /// Reads a value written by ``value``. A state read recently (or just written by a merge) comes
    /// from a small cache: a 100 KB note's state takes several times longer to read than to write, and
    /// the same state is read by each change that merges into it.
    ///
    /// - Throws: a ``/BoutiqueDB/BoutiqueError`` for a value that is not one, or is damaged.
    /// With `forChange`, a cached state is taken out of the cache, so that changing it changes it in
    /// place instead of copying a whole note's state first.
    package init(_ value: DatabaseValue, forChange: Bool = false) throws {
        guard Self.isEncoded(value), case .blob(let bytes) = value else {
            throw TextRecordReader.malformed("a collaborative text value", "\(value)".prefix(80).description)
        }
        switch bytes[Self.prefix.count] {
        case 1:
            let payload = Array(bytes[(Self.prefix.count + 1)...])
            let reader = try TextRecordReader(payload, what: "collaborative text operations")
            self = .operations(try reader.values.map { value in
                guard case .blob(let record) = value else { throw reader.malformed("\(value)") }
                return try TextOperation(record: record)
            })
        case 2:
            if let cached = RecentStates.shared.text(for: bytes, taking: forChange) {
                self = .state(cached)
                return
            }
            let text = try CollaborativeText(record: Array(bytes[(Self.prefix.count + 1)...]))
            if !forChange { RecentStates.shared.keep(text, for: bytes) }
            self = .state(text)
        case let kind:
            throw TextRecordReader.malformed("a collaborative text value", "kind \(kind)")
        }
    }

    /// The value as sync stores and sends it.
    package var value: DatabaseValue {
        switch self {
        case .operations(let operations):
            return .blob(Self.prefix + [1] + RecordEncoder.encode(operations.map { .blob($0.record()) }))
        case .state(let text):
            let bytes = Self.prefix + [2] + text.record()
            RecentStates.shared.keep(text, for: bytes)
            return .blob(bytes)
        }
    }

    /// The text this value makes: a state as it is, operations applied to an empty text.
    package func text() throws -> CollaborativeText {
        switch self {
        case .state(let text): return text
        case .operations(let operations):
            var text = CollaborativeText()
            try text.apply(operations)
            return text
        }
    }

    /// The collaborative text a cell holds: its state or operations, or a plain value read as text
    /// its stamp's writer typed (see the type's description).
    package static func text(of value: DatabaseValue, stamp: SyncStamp) throws -> CollaborativeText {
        if isEncoded(value) { return try CollaborativeTextValue(value, forChange: true).text() }
        let plain = plainText(value)
        var text = CollaborativeText()
        if !plain.isEmpty { _ = try text.insert(plain, at: 0, by: "=\(stamp.time.rawValue)@\(stamp.replica)") }
        return text
    }

    /// The string a plain value stands for in a collaborative column: text as it is, a number as
    /// SQLite prints it, NULL and blobs as nothing.
    package static func plainText(_ value: DatabaseValue) -> String {
        switch value {
        case .text(let text): text
        case .integer(let number): String(number)
        case .real(let number): String(number)
        case .null, .blob: ""
        }
    }

    /// The value a table shows for `value`: the merged string for a collaborative text value, any
    /// other value as it is (a damaged collaborative value shows as NULL rather than as bytes).
    package static func shown(_ value: DatabaseValue) -> DatabaseValue {
        guard isEncoded(value) else { return value }
        guard let text = try? CollaborativeTextValue(value).text() else { return .null }
        return .text(text.text)
    }

    /// The merge of two cells at least one of which holds a collaborative text value: a state holding
    /// both, stamped with the later stamp. A plain value written before the text's latest edit is
    /// the text those edits started from (a row written before its column was collaborative), and is
    /// merged in as such; a plain value written after it is ignored: a collaborative column changes by
    /// text operations only. `nil` when a side cannot be read (last-writer-wins then decides, as for
    /// any value).
    ///
    /// A value that says it is collaborative text and cannot be read (damaged on a disk or on the way)
    /// never wins over one that can, whatever their stamps: it would make the text unreadable on every
    /// replica that took it, and every later edit of it unmergeable. The sound side is kept, stamped
    /// with the later stamp; two damaged sides are left to last-writer-wins.
    package static func merge(_ a: CellRegister, _ b: CellRegister) -> CellRegister? {
        if a.value == b.value { return a.stamp < b.stamp ? b : a }
        let aIsSound = isSound(a.value), bIsSound = isSound(b.value)
        if aIsSound != bIsSound { return CellRegister(value: aIsSound ? a.value : b.value, stamp: max(a.stamp, b.stamp)) }
        if !aIsSound { return nil }
        let aIsText = isEncoded(a.value), bIsText = isEncoded(b.value)
        if aIsText != bIsText {
            let (plain, text) = aIsText ? (b, a) : (a, b)
            if text.stamp < plain.stamp { return text }
        }
        if case .operations(let first)? = try? CollaborativeTextValue(a.value), case .operations(let second)? = try? CollaborativeTextValue(b.value) {
            // Operations meeting operations (a batch's changes of one row, merged before its state):
            // their union, in id order, so that any order of merging writes the same bytes.
            let union = Array(Set(first).union(second)).sorted { $0.id < $1.id }
            return CellRegister(value: CollaborativeTextValue.operations(union).value, stamp: max(a.stamp, b.stamp))
        }
        // The side holding a state (the larger) takes the other in.
        let (base, other) = isState(b.value) && !isState(a.value) ? (b, a) : (a, b)
        guard var merged = try? self.text(of: base.value, stamp: base.stamp) else { return nil }
        let (version, waiting) = (merged.version, merged.waitingCount)
        guard (try? absorb(other, into: &merged)) != nil else { return nil }
        // Nothing new (an operation already applied): the state as it was, not written again.
        if isState(base.value), merged.version == version, merged.waitingCount == waiting {
            if case .blob(let bytes) = base.value { RecentStates.shared.keep(merged, for: bytes) }
            return CellRegister(value: base.value, stamp: max(a.stamp, b.stamp))
        }
        return CellRegister(value: CollaborativeTextValue.state(merged).value, stamp: max(a.stamp, b.stamp))
    }

    /// Whether `value` is not a collaborative text value, or is one that reads.
    private static func isSound(_ value: DatabaseValue) -> Bool {
        !isEncoded(value) || (try? CollaborativeTextValue(value)) != nil
    }

    /// Whether `value` says it is a whole state (not operations). A push carries operations only: a
    /// state's few bytes may claim millions of characters, which reading it would build.
    package static func isState(_ value: DatabaseValue) -> Bool {
        guard isEncoded(value), case .blob(let bytes) = value else { return false }
        return bytes[prefix.count] == 2
    }

    /// Merges a cell's text into `text`: operations applied, a state merged, a plain value read as text.
    private static func absorb(_ cell: CellRegister, into text: inout CollaborativeText) throws {
        if isEncoded(cell.value), case .operations(let operations) = try CollaborativeTextValue(cell.value) {
            try text.apply(operations)
        } else {
            try text.merge(self.text(of: cell.value, stamp: cell.stamp))
        }
    }
}

/// The collaborative text states read or written last, by their bytes: a small cache, so that the
/// changes merging into one note's state one after the other each read it once, not in full again.
final class RecentStates: Sendable {
    static let shared = RecentStates()
    /// The most states kept: a few notes edited at once.
    static let capacity = 4

    private struct Entry {
        let bytes: [UInt8]
        let text: CollaborativeText
    }

    private let entries = Lock<[Entry]>([])

    /// The state kept for `bytes`; `taking` it leaves the caller the only holder of it.
    func text(for bytes: [UInt8], taking: Bool) -> CollaborativeText? {
        entries.withLock { entries in
            guard let index = entries.firstIndex(where: { $0.bytes.count == bytes.count && $0.bytes == bytes }) else { return nil }
            let entry = entries.remove(at: index)
            if !taking { entries.append(entry) }
            return entry.text
        }
    }

    func keep(_ text: CollaborativeText, for bytes: [UInt8]) {
        entries.withLock { entries in
            entries.removeAll { $0.bytes.count == bytes.count && $0.bytes == bytes }
            entries.append(Entry(bytes: bytes, text: text))
            if entries.count > Self.capacity { entries.removeFirst() }
        }
    }
}
