/// Sync's tables in the app's database file, created by sync's own migrations.
///
/// They live beside the app's tables but not in its migration plan: the app's history
/// (`boutique_migrations`) stays the app's, and sync records its own steps in
/// `boutique_sync_migrations`, so the two plans never disagree about what was applied. Every table is
/// named `boutique_sync_…`, which the change log does not record.
///
/// - `boutique_sync_replica`: this database's replica id, the id it gave up (to tell the server), the
///   clock's latest reading, the server's clock minus this device's as last measured (`clock_offset`,
///   milliseconds), and how far local transactions were folded into row states.
/// - `boutique_sync_table`: the synced tables, lowercased. BoutiqueDB stamps every local commit that
///   changes one of them, in whatever process makes it (see `TransactionOrigin`).
/// - `boutique_sync_txn`: the clock stamp of each local write transaction, by `change_txn_id`, written in
///   that transaction by BoutiqueDB; pulled transactions are marked `remote` and never pushed.
/// - `boutique_sync_row`: the merge state of each synced row: per column the winning value and stamp,
///   and the existence register.
/// - `boutique_sync_server`: per server, the acknowledged transaction and its digest, the pull cursor,
///   whether the snapshot bootstrap finished, how far one under way got (``BootstrapResumePoint``), and
///   the history of the server's log the positions were taken in (``SyncServerID/history``).
/// - `boutique_sync_snapshot_seen`: during a bootstrap again, the rows the server's pages named so far:
///   what it does not name is dropped at the end. On disk, so a bootstrap's memory does not grow with
///   the rows and a resumed one still knows the pages before the restart.
/// - `boutique_sync_snapshot_waiting`: during a bootstrap, snapshot rows held back until the parent
///   row their foreign key names arrives in a later page (``SnapshotParents``), by that parent.
/// - `boutique_sync_parked`: tables and columns this app version does not know that hold pulled values
///   (kept in the row states) until a migration adds them.
/// - `boutique_sync_schema`: the synced tables' shape when sync last checked, to refuse changes that are
///   not additive.
/// - `boutique_sync_previous`: per (table, key, foreign-key column), the value the column's winning write
///   replaced, and that write's stamp: where a row goes back to when a move into a deleted parent loses
///   (``PreviousValues``).
/// - `boutique_sync_space`: on a server with rules, the space of each row outside the common space
///   (``SpaceLabels``): what a space the user leaves takes with it.
/// - `boutique_sync_waiting`: rows kept out of their table until the parent their foreign key names,
///   which this user cannot see yet, arrives (``WaitingRows``).
/// - `boutique_sync_replica_secret`: the secret each replica id of the file goes with (``ReplicaSecrets``).
/// - `boutique_sync_server_alias`: the server (its ``SyncServerID/key``) each address was last found to
///   reach (``ServerAlias``): progress is kept by server, not by address.
/// - `boutique_sync_netted` and `boutique_sync_netted_txn`: local transactions too large to read whole,
///   netted to one change per row, until pushed and folded (``NettedTransactions``).
/// - `boutique_sync_pull_mark`: per server, the pull cursor each time it moved, with the file's clock
///   then (``PullMarks``): how far the file had pulled when each local write was made.
/// - `boutique_sync_logged`: per server, where this file's own transactions are in the server's log,
///   by stamp (``OwnLogPositions``): whether another device's change was made knowing them.
/// - `boutique_sync_superseded`: per row and local transaction not acknowledged yet, the cells of this
///   file's earlier writes it replaced (``SupersededCells``): what a refusal of it puts back.
/// - `boutique_sync_text_ops`: per local transaction not acknowledged yet, row and collaborative text
///   column, the text operations its new value was diffed into when it was folded: what its push
///   carries, the same bytes at every retry (``CollaborativeTextCapture``).
/// - `boutique_sync_outrun`: per row with superseded cells and column, the newest pulled write that lost
///   to a later write of this file's, and its writers' furthest cursor (``OutrunArrivals``): what judges
///   the earlier edit a refusal puts back.
/// - `boutique_sync_attachment_column` and `boutique_sync_attachment_upload`: the synced columns whose
///   values are attachments (from the app's models), and the attachments rows of this file pointed at
///   since, whose bytes may still have to be uploaded, or that the server refused, why and when
///   (``AttachmentUploadQueue``).
/// - `boutique_sync_attachment_confirmed`: per server address, the attachments this device knows the
///   server holds whole (an upload it checked, a download checked here): the only bytes a budget for
///   fetched bytes may evict (``ConfirmedAttachments``).
enum SyncMetadataSchema {
    static let migrations: [(id: String, sql: String)] = [
        ("v1_sync_metadata", """
            CREATE TABLE boutique_sync_replica(singleton INTEGER PRIMARY KEY CHECK (singleton = 1), replica TEXT NOT NULL,
                retired TEXT, clock INTEGER NOT NULL, folded_through INTEGER NOT NULL);
            CREATE TABLE boutique_sync_txn(change_txn_id INTEGER PRIMARY KEY, stamp INTEGER NOT NULL, writer TEXT NOT NULL,
                remote INTEGER NOT NULL);
            CREATE TABLE boutique_sync_row(tbl TEXT NOT NULL, key NOT NULL, state BLOB NOT NULL, PRIMARY KEY(tbl, key)) WITHOUT ROWID;
            CREATE TABLE boutique_sync_server(server TEXT PRIMARY KEY NOT NULL, acknowledged INTEGER NOT NULL, digest INTEGER,
                cursor INTEGER NOT NULL, bootstrapped INTEGER NOT NULL) WITHOUT ROWID;
            CREATE TABLE boutique_sync_parked(tbl TEXT NOT NULL, col TEXT NOT NULL, PRIMARY KEY(tbl, col)) WITHOUT ROWID;
            CREATE TABLE boutique_sync_schema(tbl TEXT NOT NULL, position INTEGER NOT NULL, col TEXT NOT NULL, type TEXT NOT NULL,
                not_null INTEGER NOT NULL, is_key INTEGER NOT NULL, PRIMARY KEY(tbl, position)) WITHOUT ROWID;
            """),
        ("v2_commit_stamps", """
            CREATE TABLE boutique_sync_table(tbl TEXT PRIMARY KEY NOT NULL) WITHOUT ROWID;
            ALTER TABLE boutique_sync_replica ADD COLUMN clock_offset INTEGER NOT NULL DEFAULT 0;
            """),
        ("v3_resumable_bootstrap", """
            ALTER TABLE boutique_sync_server ADD COLUMN snapshot_progress TEXT;
            CREATE TABLE boutique_sync_snapshot_seen(server TEXT NOT NULL, tbl TEXT NOT NULL, key NOT NULL,
                PRIMARY KEY(server, tbl, key)) WITHOUT ROWID;
            CREATE TABLE boutique_sync_snapshot_waiting(server TEXT NOT NULL, tbl TEXT NOT NULL, key NOT NULL,
                parent_tbl TEXT NOT NULL, parent_key NOT NULL, state BLOB NOT NULL, PRIMARY KEY(server, tbl, key)) WITHOUT ROWID;
            CREATE INDEX boutique_sync_snapshot_waiting_parent ON boutique_sync_snapshot_waiting(server, parent_tbl, parent_key);
            """),
        ("v4_previous_values", """
            CREATE TABLE boutique_sync_previous(tbl TEXT NOT NULL, key NOT NULL, col TEXT NOT NULL, value,
                replaced_time INTEGER NOT NULL, replaced_writer TEXT NOT NULL, PRIMARY KEY(tbl, key, col)) WITHOUT ROWID;
            """),
        ("v5_spaces", """
            CREATE TABLE boutique_sync_space(tbl TEXT NOT NULL, key NOT NULL, space TEXT NOT NULL, PRIMARY KEY(tbl, key)) WITHOUT ROWID;
            CREATE INDEX boutique_sync_space_rows ON boutique_sync_space(space);
            CREATE TABLE boutique_sync_waiting(tbl TEXT NOT NULL, key NOT NULL, parent_tbl TEXT NOT NULL, parent_key NOT NULL,
                PRIMARY KEY(tbl, key)) WITHOUT ROWID;
            CREATE INDEX boutique_sync_waiting_parent ON boutique_sync_waiting(parent_tbl, parent_key);
            """),
        ("v6_replica_secrets", """
            CREATE TABLE boutique_sync_replica_secret(replica TEXT PRIMARY KEY NOT NULL, secret TEXT NOT NULL) WITHOUT ROWID;
            """),
        ("v7_server_aliases", """
            CREATE TABLE boutique_sync_server_alias(address TEXT PRIMARY KEY NOT NULL, server TEXT NOT NULL) WITHOUT ROWID;
            """),
        ("v8_netted_transactions", """
            CREATE TABLE boutique_sync_netted(txn INTEGER NOT NULL, position INTEGER NOT NULL, tbl TEXT NOT NULL, key NOT NULL,
                net BLOB NOT NULL, PRIMARY KEY(txn, position)) WITHOUT ROWID;
            CREATE UNIQUE INDEX boutique_sync_netted_row ON boutique_sync_netted(txn, tbl, key);
            CREATE TABLE boutique_sync_netted_txn(txn INTEGER PRIMARY KEY, commit_id INTEGER NOT NULL, positions INTEGER NOT NULL);
            """),
        ("v9_write_knowledge", """
            CREATE TABLE boutique_sync_pull_mark(server TEXT NOT NULL, clock INTEGER NOT NULL, cursor INTEGER NOT NULL,
                PRIMARY KEY(server, clock)) WITHOUT ROWID;
            CREATE TABLE boutique_sync_logged(server TEXT NOT NULL, time INTEGER NOT NULL, writer TEXT NOT NULL, sequence INTEGER NOT NULL,
                PRIMARY KEY(server, time, writer)) WITHOUT ROWID;
            """),
        ("v10_superseded_cells", """
            CREATE TABLE boutique_sync_superseded(tbl TEXT NOT NULL, key NOT NULL, txn INTEGER NOT NULL, cells BLOB NOT NULL,
                PRIMARY KEY(tbl, key, txn)) WITHOUT ROWID;
            """),
        ("v11_server_history", """
            ALTER TABLE boutique_sync_server ADD COLUMN history TEXT;
            """),
        ("v12_outrun_arrivals", """
            CREATE TABLE boutique_sync_outrun(tbl TEXT NOT NULL, key NOT NULL, col TEXT NOT NULL, cell BLOB NOT NULL, seen INTEGER,
                PRIMARY KEY(tbl, key, col)) WITHOUT ROWID;
            """),
        ("v13_collaborative_text_operations", """
            CREATE TABLE boutique_sync_text_ops(txn INTEGER NOT NULL, tbl TEXT NOT NULL, key NOT NULL, col TEXT NOT NULL,
                operations BLOB NOT NULL, PRIMARY KEY(txn, tbl, key, col)) WITHOUT ROWID;
            """),
        ("v14_attachments", """
            CREATE TABLE boutique_sync_attachment_column(tbl TEXT NOT NULL, col TEXT NOT NULL, PRIMARY KEY(tbl, col)) WITHOUT ROWID;
            CREATE TABLE boutique_sync_attachment_upload(id TEXT PRIMARY KEY NOT NULL, byte_count INTEGER NOT NULL,
                content_type TEXT NOT NULL, refusal TEXT, refusal_message TEXT) WITHOUT ROWID;
            """),
        ("v15_confirmed_attachments", """
            CREATE TABLE boutique_sync_attachment_confirmed(server TEXT NOT NULL, id TEXT NOT NULL, byte_count INTEGER NOT NULL,
                PRIMARY KEY(server, id)) WITHOUT ROWID;
            ALTER TABLE boutique_sync_attachment_upload ADD COLUMN refused_at INTEGER;
            ALTER TABLE boutique_sync_attachment_column ADD COLUMN backfilled INTEGER NOT NULL DEFAULT 0;
            """),
    ]

    /// Applies the migrations the file lacks, in the caller's write transaction, and creates the replica
    /// row on first use. Returns the replica id.
    static func prepare(_ connection: DatabaseConnection, newReplica: () -> String) throws -> String {
        let sql = SQLRunner(connection)
        try connection.execute("CREATE TABLE IF NOT EXISTS boutique_sync_migrations(id TEXT PRIMARY KEY NOT NULL) WITHOUT ROWID")
        let applied = Set(try sql.rows("SELECT id FROM boutique_sync_migrations").compactMap { $0.first?.textValue })
        for migration in migrations where !applied.contains(migration.id) {
            try connection.execute(migration.sql)
            try sql.run("INSERT INTO boutique_sync_migrations(id) VALUES (?)", [.text(migration.id)])
        }
        // The secret is made with the id (or, for a file from before secrets, at the first open that
        // knows them): a backup or a copy of the file then holds both, as the server saw them.
        if let record = try ReplicaRecordRow.read(sql) {
            _ = try ReplicaSecrets.secret(for: record.replica, sql)
            return record.replica
        }
        let record = ReplicaRecordRow(replica: newReplica())
        try ReplicaRecordRow.insert { record }.execute(connection.connection)
        _ = try ReplicaSecrets.secret(for: record.replica, sql)
        return record.replica
    }
}
