/// A snapshot page's rows in the compact form a device over HTTP asks for (``SnapshotRequest/packsRows``):
/// each table's column names once a page, each replica id and space once a page, a row's stamp once
/// when all its cells share it (a row written whole by one insert: most rows), and values in SQLite's
/// record format. A row then takes about its own values' bytes and a stamp, where the JSON of
/// ``SnapshotRow`` repeats every column's name, type tag and stamp.
///
/// ```swift
/// let packed = PackedSnapshotRows(rows)
/// let same = try packed.rows()   // == rows
/// ```
///
/// Layout: frames back to back, each a varint length and a SQLite record. The first frame is the page's
/// dictionary: the format (1), the table count, per table its name, the index of its key column (the
/// column whose value is the row's key in every row of the page that has it; NULL when none), its
/// column count and column names, then the replica count and ids, the space count and spaces. Each
/// row is a frame: its table's index, its key, its space's index (NULL for the common space), its
/// existence (NULL, 0 or 1) with its time and replica index, its latest delete's time and replica
/// index (NULL when none), one value per column of its table (NULL for the key column: the key is
/// not sent twice), then a triple (column index, time, replica index) for each column whose stamp is
/// not the existence's — time and replica NULL for a column the row has no cell for (its value is
/// then NULL too). On the wire the bytes travel as base64.
public struct PackedSnapshotRows: Hashable, Sendable, Codable {
    /// The packed page.
    public let bytes: [UInt8]

    /// The format this version writes and reads.
    static let format: Int64 = 1

    /// Packs `rows`, in order.
    public init(_ rows: [SnapshotRow]) {
        var dictionary = PageNames()
        for row in rows { dictionary.note(row) }
        var bytes: [UInt8] = []
        var values: [DatabaseValue] = []
        dictionary.appendValues(to: &values)
        Self.appendFrame(values, to: &bytes)
        for row in rows {
            values.removeAll(keepingCapacity: true)
            dictionary.appendValues(of: row, to: &values)
            Self.appendFrame(values, to: &bytes)
        }
        self.bytes = bytes
    }

    /// Packed bytes as they came (``rows()`` checks them).
    public init(bytes: [UInt8]) { self.bytes = bytes }

    /// The rows, in order.
    ///
    /// - Throws: ``/BoutiqueDB/BoutiqueError/syncRefused(reason:)`` naming what is wrong, for bytes that
    ///   are not a packed page: they come from the network.
    public func rows() throws -> [SnapshotRow] {
        var frames = Frames(bytes)
        guard let first = try frames.next() else { throw Self.malformed("no dictionary") }
        let dictionary = try PageNames(unpacking: first)
        var rows: [SnapshotRow] = []
        while let values = try frames.next() { rows.append(try dictionary.row(from: values, number: rows.count)) }
        return rows
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let bytes = Base64.decode(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "packed rows that are not base64"))
        }
        self.bytes = bytes
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(Base64.encode(bytes))
    }

    static func malformed(_ problem: String) -> BoutiqueError {
        .syncRefused(reason: "the server's packed snapshot page is malformed: \(problem)")
    }

    private static func appendFrame(_ values: [DatabaseValue], to bytes: inout [UInt8]) {
        SQLiteVarint.append(UInt64(RecordEncoder.encodedLength(values)), to: &bytes)
        RecordEncoder.append(values, to: &bytes)
    }
}

extension PackedSnapshotRows {
    /// The frames of packed bytes, one record's values at a time.
    struct Frames {
        let bytes: [UInt8]
        var offset = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        mutating func next() throws(BoutiqueError) -> [DatabaseValue]? {
            guard offset < bytes.count else { return nil }
            let length: UInt64
            let lengthBytes: Int
            do { (length, lengthBytes) = try SQLiteVarint.decode(bytes, at: offset) } catch {
                throw PackedSnapshotRows.malformed("a frame's length is cut short at byte \(offset)")
            }
            let start = offset + lengthBytes
            guard length <= UInt64(bytes.count - start) else {
                throw PackedSnapshotRows.malformed("a frame of \(length) bytes at byte \(offset) runs past the end (\(bytes.count) bytes)")
            }
            offset = start + Int(length)
            do { return try RecordDecoder.decode(bytes[start..<offset]) } catch {
                throw PackedSnapshotRows.malformed("the frame at byte \(start - lengthBytes) is not a record: \(error)")
            }
        }
    }

    /// A page's tables with their columns, replica ids and spaces, each numbered by its place.
    struct PageNames {
        struct Table {
            let name: String
            var columns: [String]
            var positions: [String: Int]
            /// The column that holds the row's key, whose value is then not sent.
            var keyColumn: Int?
        }

        var tables: [Table] = []
        private var tableIndices: [String: Int] = [:]
        var replicas: [String] = []
        private var replicaIndices: [String: Int] = [:]
        var spaces: [SyncSpace] = []
        private var spaceIndices: [SyncSpace: Int] = [:]

        init() {}

        /// Numbers what `row` names that is not numbered yet.
        mutating func note(_ row: SnapshotRow) {
            let (index, isNew) = tableIndex(row.table)
            for name in row.state.cells.keys where tables[index].positions[name] == nil {
                tables[index].positions[name] = tables[index].columns.count
                tables[index].columns.append(name)
            }
            // The key column is one that holds the key in the table's first row and in every later
            // row that has it.
            if isNew {
                tables[index].keyColumn = row.state.cells.filter { $0.value.value == row.key }.keys
                    .compactMap { tables[index].positions[$0] }.min()
            } else if let column = tables[index].keyColumn, let cell = row.state.cells[tables[index].columns[column]],
                cell.value != row.key
            {
                tables[index].keyColumn = nil
            }
            if let existence = row.state.existence { noteReplica(existence.stamp.replica) }
            if let delete = row.state.lastDelete { noteReplica(delete.replica) }
            for cell in row.state.cells.values { noteReplica(cell.stamp.replica) }
            if let space = row.space, !space.isCommon, spaceIndices[space] == nil {
                spaceIndices[space] = spaces.count
                spaces.append(space)
            }
        }

        private mutating func tableIndex(_ name: String) -> (index: Int, isNew: Bool) {
            if let known = tableIndices[name] { return (known, false) }
            tableIndices[name] = tables.count
            tables.append(Table(name: name, columns: [], positions: [:]))
            return (tables.count - 1, true)
        }

        private mutating func noteReplica(_ replica: String) {
            guard replicaIndices[replica] == nil else { return }
            replicaIndices[replica] = replicas.count
            replicas.append(replica)
        }

        /// The dictionary's frame.
        func appendValues(to values: inout [DatabaseValue]) {
            values.append(.integer(PackedSnapshotRows.format))
            values.append(.integer(Int64(tables.count)))
            for table in tables {
                values.append(.text(table.name))
                values.append(table.keyColumn.map { .integer(Int64($0)) } ?? .null)
                values.append(.integer(Int64(table.columns.count)))
                for column in table.columns { values.append(.text(column)) }
            }
            values.append(.integer(Int64(replicas.count)))
            for replica in replicas { values.append(.text(replica)) }
            values.append(.integer(Int64(spaces.count)))
            for space in spaces { values.append(.text(space.rawValue)) }
        }

        /// A row's frame; every name it holds was noted.
        func appendValues(of row: SnapshotRow, to values: inout [DatabaseValue]) {
            let tableIndex = tableIndices[row.table] ?? 0
            let table = tables[tableIndex]
            let state = row.state
            values.append(.integer(Int64(tableIndex)))
            values.append(row.key)
            values.append(row.space.flatMap { spaceIndices[$0] }.map { .integer(Int64($0)) } ?? .null)
            if let existence = state.existence {
                values.append(.integer(existence.exists ? 1 : 0))
                appendStamp(existence.stamp, to: &values)
            } else {
                values.append(contentsOf: [.null, .null, .null])
            }
            if let delete = state.lastDelete {
                appendStamp(delete, to: &values)
            } else {
                values.append(contentsOf: [.null, .null])
            }
            let trailerStart = values.count + table.columns.count
            var trailer: [DatabaseValue] = []
            for (position, column) in table.columns.enumerated() {
                guard let cell = state.cells[column] else {
                    values.append(.null)
                    trailer.append(contentsOf: [.integer(Int64(position)), .null, .null])
                    continue
                }
                values.append(position == table.keyColumn ? .null : cell.value)
                if cell.stamp != state.existence?.stamp {
                    trailer.append(.integer(Int64(position)))
                    appendStamp(cell.stamp, to: &trailer)
                }
            }
            assert(values.count == trailerStart)
            values.append(contentsOf: trailer)
        }

        private func appendStamp(_ stamp: SyncStamp, to values: inout [DatabaseValue]) {
            values.append(.integer(Int64(bitPattern: stamp.time.rawValue)))
            values.append(.integer(Int64(replicaIndices[stamp.replica] ?? 0)))
        }

        /// Reads a dictionary frame, checking every count against the values at hand.
        init(unpacking values: [DatabaseValue]) throws(BoutiqueError) {
            var reader = Reader(values: values, frame: "the dictionary")
            let format = try reader.integer("format")
            guard format == PackedSnapshotRows.format else {
                throw PackedSnapshotRows.malformed("format \(format) is not \(PackedSnapshotRows.format)")
            }
            for _ in 0..<(try reader.count("table count")) {
                let name = try reader.text("table name")
                var table = Table(name: name, columns: [], positions: [:])
                let keyColumn = try reader.peekNull() ? nil : try reader.integer("key column of \(name)")
                if keyColumn == nil { reader.skip() }
                for _ in 0..<(try reader.count("column count of \(name)")) {
                    let column = try reader.text("column name of \(name)")
                    table.positions[column] = table.columns.count
                    table.columns.append(column)
                }
                if let keyColumn {
                    guard keyColumn >= 0, keyColumn < Int64(table.columns.count) else {
                        throw PackedSnapshotRows.malformed("the key column \(keyColumn) of \(name) is not one of its \(table.columns.count)")
                    }
                    table.keyColumn = Int(keyColumn)
                }
                tables.append(table)
            }
            for _ in 0..<(try reader.count("replica count")) { replicas.append(try reader.text("replica id")) }
            for _ in 0..<(try reader.count("space count")) {
                let raw = try reader.text("space")
                guard let space = SyncSpace(rawValue: raw) else { throw PackedSnapshotRows.malformed("\(raw) is not a space") }
                spaces.append(space)
            }
            guard reader.isAtEnd else { throw PackedSnapshotRows.malformed("the dictionary has values past its end") }
        }

        /// The row of a row frame.
        func row(from values: [DatabaseValue], number: Int) throws(BoutiqueError) -> SnapshotRow {
            var reader = Reader(values: values, frame: "row \(number)")
            let table = try reader.index(into: tables.count, "table")
            let columns = tables[table].columns
            let keyColumn = tables[table].keyColumn
            let key = try reader.value("key")
            guard !key.isNull else { throw PackedSnapshotRows.malformed("row \(number) has a NULL key") }
            var space: SyncSpace?
            if !(try reader.peekNull()) { space = spaces[try reader.index(into: spaces.count, "space")] } else { reader.skip() }
            var state = RowRegister()
            if try reader.peekNull() {
                reader.skip()
                try reader.nulls(2, "existence stamp")
            } else {
                let flag = try reader.integer("existence")
                guard flag == 0 || flag == 1 else { throw PackedSnapshotRows.malformed("row \(number) has existence \(flag)") }
                state.existence = ExistenceRegister(exists: flag == 1, stamp: try stamp(&reader, "existence"))
            }
            if try reader.peekNull() {
                reader.skip()
                try reader.nulls(1, "delete stamp")
            } else {
                state.lastDelete = try stamp(&reader, "delete")
            }
            var cellValues: [DatabaseValue] = []
            cellValues.reserveCapacity(columns.count)
            for column in columns { cellValues.append(try reader.value("value of \(column)")) }
            var own: [Int: SyncStamp?] = [:]
            while !reader.isAtEnd {
                let position = try reader.index(into: columns.count, "column")
                if try reader.peekNull() {
                    reader.skip()
                    try reader.nulls(1, "stamp of \(columns[position])")
                    own[position] = .some(nil)
                } else {
                    own[position] = .some(try stamp(&reader, columns[position]))
                }
            }
            for (position, column) in columns.enumerated() {
                let cellStamp: SyncStamp
                switch own[position] {
                case .some(.none): continue
                case .some(.some(let stamp)): cellStamp = stamp
                case .none:
                    guard let shared = state.existence?.stamp else {
                        throw PackedSnapshotRows.malformed("row \(number) has a value of \(column) without a stamp")
                    }
                    cellStamp = shared
                }
                var value = cellValues[position]
                if position == keyColumn {
                    guard value.isNull else { throw PackedSnapshotRows.malformed("row \(number) sends its key column \(column)") }
                    value = key
                }
                state.cells[column] = CellRegister(value: value, stamp: cellStamp)
            }
            return SnapshotRow(table: tables[table].name, key: key, state: state, space: space)
        }

        private func stamp(_ reader: inout Reader, _ what: String) throws(BoutiqueError) -> SyncStamp {
            let time = try reader.integer("time of the \(what) stamp")
            let replica = try reader.index(into: replicas.count, "replica of the \(what) stamp")
            return SyncStamp(time: HybridTimestamp(rawValue: UInt64(bitPattern: time)), replica: replicas[replica])
        }
    }

    /// Reads a frame's values in order, each checked for its kind and the frame for its length.
    struct Reader {
        let values: [DatabaseValue]
        let frame: String
        var position = 0

        var isAtEnd: Bool { position == values.count }

        mutating func value(_ what: String) throws(BoutiqueError) -> DatabaseValue {
            guard position < values.count else { throw PackedSnapshotRows.malformed("\(frame) ends before its \(what)") }
            position += 1
            return values[position - 1]
        }

        func peekNull() throws(BoutiqueError) -> Bool {
            guard position < values.count else { throw PackedSnapshotRows.malformed("\(frame) ends early") }
            return values[position].isNull
        }

        mutating func skip() { position += 1 }

        mutating func nulls(_ count: Int, _ what: String) throws(BoutiqueError) {
            for _ in 0..<count {
                guard try value(what).isNull else { throw PackedSnapshotRows.malformed("\(frame) has a half \(what)") }
            }
        }

        mutating func integer(_ what: String) throws(BoutiqueError) -> Int64 {
            guard case .integer(let number) = try value(what) else {
                throw PackedSnapshotRows.malformed("\(frame)'s \(what) is not an integer")
            }
            return number
        }

        mutating func text(_ what: String) throws(BoutiqueError) -> String {
            guard case .text(let text) = try value(what) else { throw PackedSnapshotRows.malformed("\(frame)'s \(what) is not text") }
            return text
        }

        /// A count of items that follow, each of at least one value: at most the values left.
        mutating func count(_ what: String) throws(BoutiqueError) -> Int {
            let number = try integer(what)
            guard number >= 0, number <= Int64(values.count - position) else {
                throw PackedSnapshotRows.malformed("\(frame)'s \(what) \(number) does not fit its \(values.count) values")
            }
            return Int(number)
        }

        /// An index into a list of `count` items.
        mutating func index(into count: Int, _ what: String) throws(BoutiqueError) -> Int {
            let number = try integer(what)
            guard number >= 0, number < Int64(count) else {
                throw PackedSnapshotRows.malformed("\(frame)'s \(what) index \(number) is not below \(count)")
            }
            return Int(number)
        }
    }
}
