/// What the change log records for each row change, as Turso's `capture_data_changes_conn` pragma names it.
///
/// ```swift
/// let db = try await BoutiqueDB.open(url: url, migrations: AppMigrations.plan,
///                                    options: .init(changeCapture: .init(mode: .id)))
/// ```
///
/// Every mode but ``off`` writes one `turso_cdc` row per changed row and one COMMIT row per transaction;
/// the modes differ in the row images they keep. Live queries work in every mode; in ``off`` they learn
/// about other processes' commits only that something changed, not which tables.
public enum ChangeCaptureMode: String, Sendable, Hashable, CaseIterable, Codable {
    /// No change log: `turso_cdc` is neither created nor written.
    case off
    /// The table and rowid of each change, without row images.
    case id
    /// The row as it was before an update or delete.
    case before
    /// The row as it is after an insert or update.
    case after
    /// Both images, and for updates the record of assigned columns (`updates`). The default.
    case full

    /// Whether `before` images are written.
    var recordsBefore: Bool { self == .before || self == .full }
    /// Whether `after` images are written.
    var recordsAfter: Bool { self == .after || self == .full }
    /// Whether the `updates` record is written.
    var recordsUpdates: Bool { self == .full }
    /// Whether any row is written to `turso_cdc`.
    var writesLog: Bool { self != .off }
}
