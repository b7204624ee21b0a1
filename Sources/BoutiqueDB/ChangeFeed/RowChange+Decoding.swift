import BoutiqueSQLite

extension RowChange {
    /// The row after the change as a model, `nil` when the log has no after image (a delete, or a mode
    /// that does not record it).
    ///
    /// ```swift
    /// if let note = try change.after(as: Note.self) { notes[note.id] = note }
    /// ```
    ///
    /// Columns are matched by name, so a model may list them in another order than the table; a model
    /// column the image lacks (added to the table after the change) reads as NULL.
    public func after<T: Table & Sendable>(as type: T.Type) throws -> T? {
        guard let after else { return nil }
        return try RecordRows.decode(T.self, from: after, columns: columns)
    }

    /// The row before the change as a model, `nil` when the log has no before image (an insert, or a
    /// mode that does not record it).
    ///
    /// ```swift
    /// if change.kind == .delete, let note = try change.before(as: Note.self) { archive(note) }
    /// ```
    public func before<T: Table & Sendable>(as type: T.Type) throws -> T? {
        guard let before else { return nil }
        return try RecordRows.decode(T.self, from: before, columns: columns)
    }
}
