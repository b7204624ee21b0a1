import BoutiqueDB
import CSQLite
import Foundation

/// What a one-row write transaction with sync on costs at the least: the statements BoutiqueDB runs
/// per commit (the row, its change-log rows, the commit stamp) written against the C API with
/// prepared statements, so that the ratio of sync on to sync off has a floor to be compared with.
///
///     swift run -c release boutique-benchmarks --sync
///
/// Each variant runs `count` transactions of: `BEGIN IMMEDIATE`, the row's `INSERT`, its change-log
/// row and the log's commit row (`turso_cdc`, `AUTOINCREMENT` as BoutiqueDB's), then the stamp
/// statements of the variant, then `COMMIT`; WAL with `synchronous = NORMAL`, as BoutiqueDB opens files.
enum SyncCommitFloor {
    /// The stamp statements a variant adds to each transaction.
    enum Stamping: CaseIterable {
        /// None: sync off.
        case none
        /// Read the file's clock, write the transaction's stamp, write the clock back.
        case clockRow
        /// Read the file's clock and the newest stamp in one statement, write the transaction's stamp.
        case stampRowOnly

        var name: String {
            switch self {
            case .none: "raw C, sync off"
            case .clockRow: "raw C, stamp + clock row"
            case .stampRowOnly: "raw C, stamp row only"
            }
        }
    }

    static let schema = """
        PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;
        CREATE TABLE note(id TEXT PRIMARY KEY NOT NULL, title TEXT NOT NULL, body TEXT, rank INTEGER);
        CREATE TABLE turso_cdc(change_id INTEGER PRIMARY KEY AUTOINCREMENT, change_time INTEGER, change_txn_id INTEGER,
            change_type INTEGER, table_name TEXT, id, "before" BLOB, "after" BLOB, updates BLOB);
        CREATE TABLE boutique_sync_replica(singleton INTEGER PRIMARY KEY, replica TEXT NOT NULL, retired TEXT,
            clock INTEGER NOT NULL, folded_through INTEGER NOT NULL, clock_offset INTEGER NOT NULL DEFAULT 0);
        INSERT INTO boutique_sync_replica VALUES (1, 'r', NULL, 0, 0, 0);
        CREATE TABLE boutique_sync_txn(change_txn_id INTEGER PRIMARY KEY, stamp INTEGER NOT NULL, writer TEXT NOT NULL,
            remote INTEGER NOT NULL DEFAULT 0);
        """

    /// `count` one-row write transactions on a new file; returns the wall-clock and CPU seconds.
    static func writesOnce(_ stamping: Stamping, count: Int) throws -> SyncWorkloads.Timing {
        let path = SyncWorkloads.path("floor")
        defer { SyncWorkloads.remove(path) }
        var db: OpaquePointer?
        guard sqlite3_open(path.path, &db) == SQLITE_OK, let db else { throw failure(db, "open") }
        defer { sqlite3_close_v2(db) }
        guard sqlite3_exec(db, schema, nil, nil, nil) == SQLITE_OK else { throw failure(db, "schema") }
        let sql = [
            "BEGIN IMMEDIATE", "COMMIT",
            "INSERT INTO note(id, title) VALUES (?, ?)",
            "INSERT INTO turso_cdc(change_time, change_txn_id, change_type, table_name, id, after) VALUES (unixepoch(), ?, 1, 'note', ?, ?)",
            "INSERT INTO turso_cdc(change_time, change_txn_id, change_type) VALUES (unixepoch(), ?, 2)",
            "SELECT clock, clock_offset FROM boutique_sync_replica WHERE singleton = 1",
            "INSERT INTO boutique_sync_txn(change_txn_id, stamp, writer, remote) VALUES (?, ?, 'w', 0) ON CONFLICT DO UPDATE SET stamp = excluded.stamp",
            "UPDATE boutique_sync_replica SET clock = ? WHERE singleton = 1",
            "SELECT clock, clock_offset, (SELECT stamp FROM boutique_sync_txn ORDER BY change_txn_id DESC LIMIT 1) FROM boutique_sync_replica WHERE singleton = 1",
        ]
        var statements: [OpaquePointer] = []
        defer { statements.forEach { sqlite3_finalize($0) } }
        for text in sql {
            var statement: OpaquePointer?
            guard sqlite3_prepare_v3(db, text, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil) == SQLITE_OK, let statement
            else { throw failure(db, text) }
            statements.append(statement)
        }
        let (begin, commit, row, change, commitRow, readClock, stamp, writeClock, readBoth) =
            (statements[0], statements[1], statements[2], statements[3], statements[4], statements[5], statements[6], statements[7], statements[8])
        let image = [UInt8](repeating: 7, count: 24)
        var clock: Int64 = 0
        let start = DispatchTime.now().uptimeNanoseconds
        let cpuStart = CDCWorkloads.processCPUTime()
        for index in 0..<count {
            try run(begin, db)
            sqlite3_bind_text(row, 1, "n\(index)", -1, transient)
            sqlite3_bind_text(row, 2, "t", -1, transient)
            try run(row, db)
            let rowid = sqlite3_last_insert_rowid(db)
            sqlite3_bind_int64(change, 1, rowid)
            sqlite3_bind_int64(change, 2, rowid)
            sqlite3_bind_blob(change, 3, image, Int32(image.count), transient)
            try run(change, db)
            let transaction = sqlite3_last_insert_rowid(db)
            sqlite3_bind_int64(commitRow, 1, transaction)
            try run(commitRow, db)
            switch stamping {
            case .none: break
            case .clockRow:
                guard sqlite3_step(readClock) == SQLITE_ROW else { throw failure(db, "clock") }
                clock = max(sqlite3_column_int64(readClock, 0) + 1, clock)
                sqlite3_reset(readClock)
                sqlite3_bind_int64(stamp, 1, transaction)
                sqlite3_bind_int64(stamp, 2, clock)
                try run(stamp, db)
                sqlite3_bind_int64(writeClock, 1, clock)
                try run(writeClock, db)
            case .stampRowOnly:
                guard sqlite3_step(readBoth) == SQLITE_ROW else { throw failure(db, "clock") }
                clock = max(sqlite3_column_int64(readBoth, 0), sqlite3_column_int64(readBoth, 2)) + 1
                sqlite3_reset(readBoth)
                sqlite3_bind_int64(stamp, 1, transaction)
                sqlite3_bind_int64(stamp, 2, clock)
                try run(stamp, db)
            }
            try run(commit, db)
        }
        return SyncWorkloads.Timing(
            wall: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9, cpu: CDCWorkloads.processCPUTime() - cpuStart)
    }

    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    private static func run(_ statement: OpaquePointer, _ db: OpaquePointer) throws {
        let rc = sqlite3_step(statement)
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
        guard rc == SQLITE_DONE || rc == SQLITE_ROW else { throw failure(db, "step") }
    }

    private static func failure(_ db: OpaquePointer?, _ what: String) -> BoutiqueError {
        .invalidArgument("\(what): " + (db.flatMap { String(cString: sqlite3_errmsg($0)) } ?? "no database"))
    }
}
