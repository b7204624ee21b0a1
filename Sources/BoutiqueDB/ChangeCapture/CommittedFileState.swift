import BoutiqueSQLite

/// What the writer knew of the file when its last transaction committed: the schema version and the
/// change log's next id.
///
/// ```swift
/// // after a commit:
/// state = CommittedFileState(dataVersion: try connection.fileDataVersion(), schemaVersion: 7, nextChangeID: 42)
/// // at the next BEGIN: reuse it when nothing has changed the file since
/// if let known = state?.ifUnchanged(on: connection) { … }
/// ```
///
/// Reading the two costs four statements per transaction (`PRAGMA schema_version` at the start and at
/// the commit, the log's largest id and its `AUTOINCREMENT` counter), a good part of what a one-row
/// transaction pays for its log. The file's data version (`SQLITE_FCNTL_DATA_VERSION`, a function
/// call) changes with every commit to the file by any connection, this one's included; when it is
/// what it was just after this writer's last commit, nobody has committed since, and what the writer
/// knew then still holds.
struct CommittedFileState {
    /// The file's data version just after the commit.
    let dataVersion: UInt32
    /// `PRAGMA schema_version` as the transaction left it.
    let schemaVersion: Int64
    /// The `change_id` the log's next row gets; `nil` when the transaction did not learn it.
    let nextChangeID: Int64?

    /// `self` when the file's data version is still the one after the commit; `nil` otherwise (or when
    /// it cannot be read).
    func ifUnchanged(on connection: Connection) -> CommittedFileState? {
        (try? connection.fileDataVersion()) == dataVersion ? self : nil
    }
}
