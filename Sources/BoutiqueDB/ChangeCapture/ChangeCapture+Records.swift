import BoutiqueSQLite

extension ChangeCapture {
    /// The log rows for `changes`, encoded as the mode asks, in order.
    ///
    /// ```swift
    /// let rows = try logRows(for: pending, texts: statementTexts, schemaVersion: version)
    /// ```
    func logRows(for changes: [CapturedChange], texts: [String], schemaVersion: Int64) throws -> [ChangeLogRow] {
        if layoutsVersion != schemaVersion {
            layouts.removeAll()
            layoutsVersion = schemaVersion
        }
        var encoder = RowEncoding(capture: self, texts: texts, schemaVersion: schemaVersion)
        var rows: [ChangeLogRow] = []
        rows.reserveCapacity(changes.count + 1)
        for change in changes { try encoder.append(change, to: &rows) }
        return rows
    }

    /// The layout of `table` under the current schema, read once per schema version.
    func layout(of table: String) throws -> TableLayout? {
        if let known = layouts[table] { return known }
        let read = try TableLayout.read(table, from: connection)
        if let read { layouts[table] = read }
        return read
    }

    /// The `updates` record: C flags, then C values (the new value where flagged, NULL elsewhere).
    static func updatesRecord(after: [DatabaseValue], flags: [Bool]) -> [UInt8] {
        var values: [DatabaseValue] = []
        values.reserveCapacity(after.count * 2)
        for index in after.indices { values.append(flags.indices.contains(index) && flags[index] ? .integer(1) : .integer(0)) }
        for index in after.indices { values.append(flags.indices.contains(index) && flags[index] ? after[index] : .null) }
        return RecordEncoder.encode(values)
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
    let texts: [String]
    let schemaVersion: Int64
    /// The assigned columns of each statement text used so far.
    var assignedByText: [Int32: [String: Set<String>]] = [:]

    init(capture: ChangeCapture, texts: [String], schemaVersion: Int64) {
        self.capture = capture
        self.texts = texts
        self.schemaVersion = schemaVersion
    }

    var mode: ChangeCaptureMode { capture.mode }

    mutating func append(_ change: CapturedChange, to rows: inout [ChangeLogRow]) throws {
        let layout = try capture.layout(of: change.table)
        let before = try change.before.map { (values) throws(BoutiqueError) in try stored(values, layout, change.table) }
        let after = try change.after.map { (values) throws(BoutiqueError) in try stored(values, layout, change.table) }
        var id = DatabaseValue.integer(change.rowID)
        if let layout, layout.isWithoutRowID {
            // Rows of a WITHOUT ROWID table are identified by their key; an update that changes the key
            // is, as a rowid change is, the old row deleted and the new one inserted.
            let oldKey = before.map(layout.keyIdentifier)
            let newKey = after.map(layout.keyIdentifier)
            if change.kind == .update, let oldKey, let newKey, oldKey != newKey {
                rows.append(row(.delete, table: change.table, id: oldKey, before: before, after: nil, updates: nil))
                rows.append(row(.insert, table: change.table, id: newKey, before: nil, after: after, updates: nil))
                return
            }
            id = (change.kind == .delete ? oldKey : newKey) ?? oldKey ?? .null
        }
        var updates: [UInt8]?
        if mode.recordsUpdates, change.kind == .update, let before, let after {
            let flags = try change.assigned
                ?? ChangeCapture.flags(
                    before: before, after: after, assigned: assigned(by: change)?[change.table.lowercased()], layout: layout)
            updates = ChangeCapture.updatesRecord(after: after, flags: flags)
        }
        rows.append(row(change.kind, table: change.table, id: id, before: before, after: after, updates: updates))
    }

    private func row(
        _ kind: RowChangeKind, table: String, id: DatabaseValue, before: [DatabaseValue]?, after: [DatabaseValue]?,
        updates: [UInt8]?
    ) -> ChangeLogRow {
        ChangeLogRow(
            type: ChangeLogRow.type(of: kind), table: table, id: id,
            before: mode.recordsBefore && kind != .insert ? before.map(RecordEncoder.encode) : nil,
            after: mode.recordsAfter && kind != .delete ? after.map(RecordEncoder.encode) : nil,
            updates: updates)
    }

    /// The columns the statement behind `change` assigns, by table.
    private mutating func assigned(by change: CapturedChange) throws -> [String: Set<String>]? {
        guard change.statement >= 0, texts.indices.contains(Int(change.statement)) else { return nil }
        if let known = assignedByText[change.statement] { return known }
        let found = capture.assignedColumns.columns(
            of: texts[Int(change.statement)], on: capture.connection, schemaVersion: schemaVersion)
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
