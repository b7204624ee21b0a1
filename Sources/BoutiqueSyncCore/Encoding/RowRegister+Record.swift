extension RowRegister {
    /// The state as one SQLite record, the form devices and the server store it in (one blob per row,
    /// so a change costs one read and one write of its row's state).
    ///
    /// ```swift
    /// let bytes = state.record()
    /// let same = try RowRegister(record: bytes)
    /// ```
    ///
    /// Layout: existence (NULL, 0 or 1), its time and replica, the latest delete's time and replica
    /// (NULL when none), then per column its name, value, time and replica — the time and replica both
    /// NULL when the column's stamp is the existence's. A row written whole by one insert (most rows)
    /// so stores its stamp once: a state of four columns takes about a third of the bytes, which is most of
    /// what a pull writes besides the rows themselves.
    public func record() -> [UInt8] {
        var values: [DatabaseValue] = []
        appendRecordValues(to: &values)
        return RecordEncoder.encode(values)
    }

    /// The values of ``record()``, in order.
    func appendRecordValues(to values: inout [DatabaseValue]) {
        values.reserveCapacity(values.count + 5 + cells.count * 4)
        if let existence {
            values.append(.integer(existence.exists ? 1 : 0))
            values.append(Self.time(existence.stamp.time))
            values.append(.text(existence.stamp.replica))
        } else {
            values.append(contentsOf: [.null, .null, .null])
        }
        if let lastDelete {
            values.append(Self.time(lastDelete.time))
            values.append(.text(lastDelete.replica))
        } else {
            values.append(contentsOf: [.null, .null])
        }
        let shared = existence?.stamp
        for (name, cell) in cells {
            values.append(.text(name))
            values.append(cell.value)
            if cell.stamp == shared {
                values.append(contentsOf: [.null, .null])
            } else {
                values.append(Self.time(cell.stamp.time))
                values.append(.text(cell.stamp.replica))
            }
        }
    }

    /// The values of the record of the state one change describes (``MergeRule/register(for:)``),
    /// without building that state.
    ///
    /// The change should name each column once: a repeated name is written twice, and reading the
    /// record back keeps the last value, as the register does.
    static func appendRecordValues(for change: SyncChange, to values: inout [DatabaseValue]) {
        let time = Self.time(change.stamp.time)
        let replica = DatabaseValue.text(change.stamp.replica)
        values.reserveCapacity(values.count + 5 + change.columns.count * 4)
        switch change.kind {
        case .insert: values.append(contentsOf: [.integer(1), time, replica, .null, .null])
        case .delete: values.append(contentsOf: [.integer(0), time, replica, time, replica])
        case .update: values.append(contentsOf: [.null, .null, .null, .null, .null])
        }
        // An insert's or a delete's columns share the existence's stamp; an update's carry their own.
        let (cellTime, cellReplica) = change.kind == .update ? (time, replica) : (.null, .null)
        for column in change.columns {
            values.append(.text(column.name))
            values.append(column.value)
            values.append(cellTime)
            values.append(cellReplica)
        }
    }

    /// Reads a state written by ``record()``.
    ///
    /// - Throws: a ``/BoutiqueDB/BoutiqueError`` for bytes that are not such a record (plain `throws`, so that callers
    ///   may `catch let error as BoutiqueError`).
    public init(record bytes: [UInt8]) throws {
        let values: [DatabaseValue]
        do { values = try RecordDecoder.decode(bytes) } catch {
            throw Self.malformed(String(describing: error))
        }
        guard values.count >= 5, (values.count - 5) % 4 == 0 else { throw Self.malformed("\(values.count) values") }
        self.init()
        switch values[0] {
        case .null: break
        case .integer(let flag):
            existence = ExistenceRegister(exists: flag != 0, stamp: try Self.stamp(values[1], values[2]))
        default: throw Self.malformed("existence flag \(values[0])")
        }
        if !values[3].isNull { lastDelete = try Self.stamp(values[3], values[4]) }
        var index = 5
        while index < values.count {
            guard case .text(let name) = values[index] else { throw Self.malformed("column name \(values[index])") }
            let stamp: SyncStamp
            if values[index + 2].isNull, values[index + 3].isNull {
                guard let shared = existence?.stamp else { throw Self.malformed("column \(name) without a stamp in a row without one") }
                stamp = shared
            } else {
                stamp = try Self.stamp(values[index + 2], values[index + 3])
            }
            cells[name] = CellRegister(value: values[index + 1], stamp: stamp)
            index += 4
        }
    }

    private static func time(_ time: HybridTimestamp) -> DatabaseValue {
        .integer(Int64(bitPattern: time.rawValue))
    }

    private static func stamp(_ time: DatabaseValue, _ replica: DatabaseValue) throws(BoutiqueError) -> SyncStamp {
        guard case .integer(let raw) = time, case .text(let id) = replica else {
            throw malformed("stamp \(time) \(replica)")
        }
        return SyncStamp(time: HybridTimestamp(rawValue: UInt64(bitPattern: raw)), replica: id)
    }

    private static func malformed(_ found: String) -> BoutiqueError {
        .decoding(.init(table: "boutique_sync_row", column: "state", expectedType: "a sync row state", found: found))
    }
}
