extension TextOperation {
    /// The operation as one SQLite record, the form sync stores and sends it in.
    ///
    /// ```swift
    /// let bytes = operation.record()
    /// let same = try TextOperation(record: bytes)
    /// ```
    ///
    /// Layout: the kind (0 insert, 1 delete), the writer's replica id and counter; then for an insert
    /// the text, the parent's replica and counter (both NULL for the start of the text), the side (0
    /// left, 1 right) and the right origin's replica and counter (both NULL for none); for a delete, per
    /// deleted range its replica, first counter and length. A run of typed text is one operation, so its
    /// metadata is paid once, not per character.
    public func record() -> [UInt8] {
        var values: [DatabaseValue] = []
        switch self {
        case .insert(let insertion):
            values = [.integer(0), .text(insertion.id.replica), .integer(Int64(insertion.id.counter)), .text(insertion.text)]
            Self.append(insertion.parent, to: &values)
            values.append(.integer(Int64(insertion.side.rawValue)))
            Self.append(insertion.rightOrigin, to: &values)
        case .delete(let deletion):
            values = [.integer(1), .text(deletion.id.replica), .integer(Int64(deletion.id.counter))]
            for range in deletion.ranges {
                values.append(.text(range.start.replica))
                values.append(.integer(Int64(range.start.counter)))
                values.append(.integer(Int64(range.count)))
            }
        }
        return RecordEncoder.encode(values)
    }

    /// Reads an operation written by ``record()``, checking it as ``CollaborativeText/apply(_:)-(TextOperation)`` would.
    ///
    /// - Throws: a ``/BoutiqueDB/BoutiqueError`` for bytes that are not such a record.
    public init(record bytes: [UInt8]) throws {
        var reader = try TextRecordReader(bytes, what: "a collaborative text operation")
        let counters = 0...CollaborativeText.maximumCounter
        let kind = try reader.integer(in: 0...1, "kind")
        let id = TextElementID(replica: try reader.text("replica"), counter: try reader.integer(in: counters, "counter"))
        if kind == 0 {
            let text = try reader.text("text")
            let parent = try Self.reference(&reader, "parent")
            guard let side = TextSide(rawValue: UInt8(try reader.integer(in: 0...1, "side"))) else { throw reader.malformed("side") }
            let rightOrigin = try Self.reference(&reader, "right origin")
            self = .insert(TextInsertion(id: id, text: text, parent: parent, side: side, rightOrigin: rightOrigin))
        } else {
            var ranges: [TextElementRange] = []
            while !reader.isAtEnd {
                let start = TextElementID(replica: try reader.text("deleted replica"), counter: try reader.integer(in: counters, "deleted counter"))
                ranges.append(TextElementRange(start: start, count: try reader.integer(in: 1...CollaborativeText.maximumCounter, "deleted count")))
            }
            self = .delete(TextDeletion(id: id, ranges: ranges))
        }
        guard reader.isAtEnd else { throw reader.malformed("\(reader.values.count) values") }
        do { try CollaborativeText.validate(self) } catch { throw reader.malformed(error.description) }
    }

    private static func append(_ reference: TextElementID?, to values: inout [DatabaseValue]) {
        if let reference {
            values.append(.text(reference.replica))
            values.append(.integer(Int64(reference.counter)))
        } else {
            values.append(contentsOf: [.null, .null])
        }
    }

    private static func reference(_ reader: inout TextRecordReader, _ field: String) throws(BoutiqueError) -> TextElementID? {
        let replica = try reader.next()
        let counter = try reader.next()
        switch (replica, counter) {
        case (.null, .null): return nil
        case (.text(let id), .integer(let raw)) where raw >= 0 && raw <= Int64(CollaborativeText.maximumCounter):
            return TextElementID(replica: id, counter: Int(raw))
        default: throw reader.malformed("\(field) \(replica) \(counter)")
        }
    }
}
