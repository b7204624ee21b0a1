import BoutiqueSQLite

extension ChangeCapture {
    /// The log rows for `changes`, encoded as the mode asks, in order.
    ///
    /// ```swift
    /// let batch = try logRows(for: pending, texts: statementTexts, bytes: capturedBytes, schemaVersion: version,
    ///                         on: connection)
    /// ```
    ///
    /// `bytes` holds the records encoded while capturing; the batch keeps them and adds the others.
    func logRows(
        for changes: [CapturedChange], texts: [String], bytes: consuming [UInt8], schemaVersion: Int64,
        on connection: Connection
    ) throws -> ChangeLogBatch {
        if layoutsVersion != schemaVersion {
            layouts.removeAll()
            layoutsVersion = schemaVersion
            layoutsAreComplete = false
        }
        var encoder = RowEncoding(capture: self, connection: connection, texts: texts, schemaVersion: schemaVersion)
        var batch = ChangeLogBatch(bytes: bytes)
        batch.rows.reserveCapacity(changes.count)
        // A guess at the size of the records still to encode (a row of a few short columns), to spare
        // most regrowing.
        let unencoded = changes.count(where: { $0.encoded == nil })
        batch.bytes.reserveCapacity(batch.bytes.count + unencoded * 48)
        let storage = searchIndexStorage()
        var lastTable = ""
        var lastIsStorage = false
        for change in changes {
            if !storage.isEmpty {
                if change.table != lastTable {
                    lastTable = change.table
                    lastIsStorage = storage.contains(change.table.lowercased())
                }
                if lastIsStorage { continue }
            }
            try encoder.append(change, to: &batch)
        }
        return batch
    }

    /// The lowercased names of FTS5's storage tables in every schema the transaction has seen: those
    /// of an FTS5 table created in it are captured before the statement creating it ends, and none of
    /// their changes is logged (see ``SearchIndexStorage``).
    private func searchIndexStorage() -> Set<String> {
        var storage = schema?.searchIndexStorage ?? []
        if let live = transaction.liveSchema { storage.formUnion(live.searchIndexStorage) }
        if let atCommit = transaction.schemaAtCommit { storage.formUnion(atCommit.searchIndexStorage) }
        return storage
    }

    /// The layout of `table` under the current schema, read once per schema version.
    func layout(of table: String, on connection: Connection) throws -> TableLayout? {
        if let known = layouts[table] { return known }
        let read = try TableLayout.read(table, from: connection)
        if let read { layouts[table] = read }
        return read
    }

    /// The values of the `updates` record: C flags, then C values (the new value where flagged, NULL
    /// elsewhere).
    static func updatesRecord(after: [DatabaseValue], flags: [Bool]) -> [DatabaseValue] {
        var values: [DatabaseValue] = []
        values.reserveCapacity(after.count * 2)
        for index in after.indices { values.append(flags.indices.contains(index) && flags[index] ? .integer(1) : .integer(0)) }
        for index in after.indices { values.append(flags.indices.contains(index) && flags[index] ? after[index] : .null) }
        return values
    }

    /// A column is flagged when the statement assigned it or its value changed (a trigger or a foreign-key
    /// action can change a column no `SET` names; the log's reader should still hear of it).
    static func flags(
        before: [DatabaseValue], after: [DatabaseValue], assigned: Set<String>?, layout: TableLayout?
    ) -> [Bool] {
        after.indices.map { index in
            if !before.indices.contains(index) || before[index] != after[index] { return true }
            guard let assigned, let layout, layout.storedColumns.indices.contains(index) else { return false }
            return assigned.contains(layout.storedColumns[index])
        }
    }
}

/// Turns captured changes into log rows for one transaction.
private struct RowEncoding {
    let capture: ChangeCapture
    let connection: Connection
    let mode: ChangeCaptureMode
    let texts: [String]
    let schemaVersion: Int64
    /// The assigned columns of each statement text used so far.
    var assignedByText: [Int32: [String: Set<String>]] = [:]
    /// The layout of the table of the change before, which most changes share.
    var lastLayout: (table: String, layout: TableLayout?)?

    init(capture: ChangeCapture, connection: Connection, texts: [String], schemaVersion: Int64) {
        self.capture = capture
        self.connection = connection
        self.mode = capture.mode
        self.texts = texts
        self.schemaVersion = schemaVersion
    }

    mutating func append(_ change: CapturedChange, to batch: inout ChangeLogBatch) throws {
        if let encoded = change.encoded {
            batch.append(
                change.kind, table: change.table, id: .integer(change.rowID),
                encodedBefore: change.kind == .delete ? encoded : nil, encodedAfter: change.kind == .insert ? encoded : nil)
            return
        }
        let layout: TableLayout?
        if let captured = change.layout {
            layout = captured
        } else if let lastLayout, lastLayout.table == change.table {
            layout = lastLayout.layout
        } else {
            layout = try capture.layout(of: change.table, on: connection)
            lastLayout = (change.table, layout)
        }
        let before = try change.before.map { (values) throws(BoutiqueError) in try stored(values, layout, change.table) }
        let after = try change.after.map { (values) throws(BoutiqueError) in try stored(values, layout, change.table) }
        var id = DatabaseValue.integer(change.rowID)
        if let layout, layout.isWithoutRowID {
            // Rows of a WITHOUT ROWID table are identified by their key; an update that changes the key
            // is, as a rowid change is, the old row deleted and the new one inserted.
            let oldKey = before.map(layout.keyIdentifier)
            let newKey = after.map(layout.keyIdentifier)
            if change.kind == .update, let oldKey, let newKey, oldKey != newKey {
                append(.delete, table: change.table, id: oldKey, before: before, after: nil, updates: nil, to: &batch)
                append(.insert, table: change.table, id: newKey, before: nil, after: after, updates: nil, to: &batch)
                return
            }
            id = (change.kind == .delete ? oldKey : newKey) ?? oldKey ?? .null
        }
        var updates: [DatabaseValue]?
        if mode.recordsUpdates, change.kind == .update, let before, let after {
            let flags = try change.assigned
                ?? ChangeCapture.flags(
                    before: before, after: after, assigned: assigned(by: change)?[change.table.lowercased()], layout: layout)
            updates = ChangeCapture.updatesRecord(after: change.updatedValues ?? after, flags: flags)
        }
        append(change.kind, table: change.table, id: id, before: before, after: after, updates: updates, to: &batch)
    }

    /// Adds a row with the images the mode keeps.
    private func append(
        _ kind: RowChangeKind, table: String, id: DatabaseValue, before: [DatabaseValue]?, after: [DatabaseValue]?,
        updates: [DatabaseValue]?, to batch: inout ChangeLogBatch
    ) {
        batch.append(
            kind, table: table, id: id, before: mode.recordsBefore && kind != .insert ? before : nil,
            after: mode.recordsAfter && kind != .delete ? after : nil, updates: updates)
    }

    /// The columns the statement behind `change` assigns, by table.
    private mutating func assigned(by change: CapturedChange) throws -> [String: Set<String>]? {
        guard change.statement >= 0, texts.indices.contains(Int(change.statement)) else { return nil }
        if let known = assignedByText[change.statement] { return known }
        let found = capture.assignedColumns.columns(
            of: texts[Int(change.statement)], on: connection, schemaVersion: schemaVersion)
        assignedByText[change.statement] = found ?? [:]
        return found
    }

    private func stored(_ values: [DatabaseValue], _ layout: TableLayout?, _ table: String) throws(BoutiqueError)
        -> [DatabaseValue]
    {
        guard let layout else { return values }
        return try layout.storedValues(values, table: table)
    }
}
