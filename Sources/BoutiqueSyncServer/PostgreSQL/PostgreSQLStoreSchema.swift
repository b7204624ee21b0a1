/// The PostgreSQL store's tables, which the store creates and upgrades itself when it opens.
///
/// ```swift
/// let store = try await PostgreSQLSyncStore.open(url: url)   // applies what the database lacks
/// print(PostgreSQLStoreSchema.version)                        // the version this code brings it to
/// ```
///
/// `boutique_sync_server_schema` records each migration applied, by version and name. Migrations run
/// in order, each once, in one transaction that first takes a transaction-scoped advisory lock: server
/// instances that start together on a new database wait for each other instead of racing to create
/// the same tables (which PostgreSQL does not make safe, not even with `IF NOT EXISTS`). A database a
/// newer server has already upgraded past what this code knows is refused and left alone.
///
/// Names that devices send (tables, keys, replica ids, and spaces, which embed a table and a key) and
/// the users of spaces' members are kept as their UTF-8 bytes in `bytea` columns: PostgreSQL text
/// cannot hold the NUL character a Swift string can, and `bytea` compares byte by byte as SQLite's
/// BINARY collation does; a key is a type tag followed by its bytes, so snapshot pages come in the
/// SQLite store's order (text keys before blob keys). Tenants come from the server's own tokens, are
/// checked when a transaction starts, and are `text`. Unsigned 64-bit values (stamps, digests, times) are stored as the bigint
/// with the same bit pattern, as in the SQLite store.
public enum PostgreSQLStoreSchema {
    /// The schema version this code creates and understands: the number of its migrations.
    public static var version: Int { migrations.count }

    struct Migration {
        let version: Int
        let name: String
        let statements: [String]
    }

    /// Every migration, oldest first; a migration once released never changes, later ones add to it.
    static let migrations: [Migration] = [
        Migration(version: 1, name: "boutique_sync_server_v1", statements: [
            """
            CREATE TABLE boutique_sync_server_tenant(
                tenant text COLLATE "C" PRIMARY KEY, next_sequence bigint NOT NULL, horizon bigint NOT NULL,
                clock bigint NOT NULL)
            """,
            """
            CREATE TABLE boutique_sync_server_row(
                tenant text COLLATE "C" NOT NULL, tbl bytea NOT NULL, key bytea NOT NULL, state bytea NOT NULL,
                alive boolean NOT NULL, sequence bigint NOT NULL, PRIMARY KEY (tenant, tbl, key))
            """,
            "CREATE INDEX boutique_sync_server_row_dead ON boutique_sync_server_row(tenant, sequence) WHERE NOT alive",
            """
            CREATE TABLE boutique_sync_server_log(
                tenant text COLLATE "C" NOT NULL, sequence bigint NOT NULL, batch bigint NOT NULL, tbl bytea NOT NULL,
                key bytea NOT NULL, change bytea NOT NULL, origin bytea NOT NULL, PRIMARY KEY (tenant, sequence))
            """,
            """
            CREATE TABLE boutique_sync_server_replica(
                tenant text COLLATE "C" NOT NULL, replica bytea NOT NULL, applied_through bigint NOT NULL, digest bigint,
                pull_cursor bigint NOT NULL, last_seen bigint NOT NULL, retired boolean NOT NULL,
                PRIMARY KEY (tenant, replica))
            """,
        ]),
        // Spaces, as in the SQLite store. A space is a name devices make (a shared space holds a root
        // row's table and key, a text key may hold NUL), so it is `bytea` like tables and keys; so are
        // members' users, which a private space embeds and trusted server code passes in unchecked.
        // `usr` and `tbl` because `user` and `table` are reserved words. A row's space is indexed (a
        // user's snapshot reads their spaces one by one); the log's is not: a pull reads a bounded
        // range of sequence numbers and keeps its spaces' entries, so a server without rules pays
        // nothing for it. Adding a column with a constant default rewrites no rows (PostgreSQL 11 and
        // later); the two indexes on the rows are built in the upgrade's transaction, which blocks the
        // store's writes while they build. Shapes are JSON in `text`: `jsonb` refuses the `\u0000` a
        // name with NUL encodes to, and nothing queries inside them.
        Migration(version: 2, name: "boutique_sync_server_v2_spaces", statements: [
            """
            ALTER TABLE boutique_sync_server_row ADD COLUMN space bytea NOT NULL DEFAULT ''::bytea,
                ADD COLUMN parent_tbl bytea, ADD COLUMN parent_key bytea
            """,
            "CREATE INDEX boutique_sync_server_row_space ON boutique_sync_server_row(tenant, space, tbl, key)",
            """
            CREATE INDEX boutique_sync_server_row_parent ON boutique_sync_server_row(tenant, parent_tbl, parent_key)
                WHERE parent_tbl IS NOT NULL
            """,
            """
            ALTER TABLE boutique_sync_server_log ADD COLUMN space bytea NOT NULL DEFAULT ''::bytea,
                ADD COLUMN moved_from bytea
            """,
            """
            CREATE TABLE boutique_sync_server_member(
                tenant text COLLATE "C" NOT NULL, space bytea NOT NULL, usr bytea NOT NULL, role text NOT NULL,
                since bigint NOT NULL, until bigint, PRIMARY KEY (tenant, space, usr, since))
            """,
            "CREATE INDEX boutique_sync_server_member_user ON boutique_sync_server_member(tenant, usr, since)",
            "CREATE TABLE boutique_sync_server_shape(tbl bytea PRIMARY KEY, shape text NOT NULL)",
        ]),
        // Refused transactions, until their device acknowledges past them (see `RefusedTransaction`).
        Migration(version: 3, name: "boutique_sync_server_v3_refusals", statements: [
            """
            CREATE TABLE boutique_sync_server_refusal(
                tenant text COLLATE "C" NOT NULL, replica bytea NOT NULL, txn bigint NOT NULL, tbl bytea NOT NULL,
                key bytea NOT NULL, reason text NOT NULL, PRIMARY KEY (tenant, replica, txn))
            """,
        ]),
        // The SHA-256 of the secret a replica id is bound to (see `ReplicaSecret`); NULL for replicas
        // recorded before, bound at their next push. A nullable column without a default rewrites no rows.
        Migration(version: 4, name: "boutique_sync_server_v4_replica_secrets", statements: [
            "ALTER TABLE boutique_sync_server_replica ADD COLUMN secret_hash bytea",
        ]),
        // The store's identity (`SyncServerID`), made once: every instance on this database answers
        // with it, so devices know the server by it rather than by the address they reached.
        Migration(version: 5, name: "boutique_sync_server_v5_identity", statements: [
            "CREATE TABLE boutique_sync_server_identity(singleton boolean PRIMARY KEY CHECK (singleton), identity text NOT NULL)",
            "INSERT INTO boutique_sync_server_identity VALUES (true, gen_random_uuid()::text)",
        ]),
        // Table shapes per tenant, as in the SQLite store: the shared ones become each tenant's own.
        Migration(version: 6, name: "boutique_sync_server_v6_tenant_shapes", statements: [
            """
            CREATE TABLE boutique_sync_server_tenant_shape(
                tenant text COLLATE "C" NOT NULL, tbl bytea NOT NULL, shape text NOT NULL, PRIMARY KEY (tenant, tbl))
            """,
            """
            INSERT INTO boutique_sync_server_tenant_shape(tenant, tbl, shape)
                SELECT tenant.tenant, shape.tbl, shape.shape FROM boutique_sync_server_tenant AS tenant CROSS JOIN boutique_sync_server_shape AS shape
            """,
            "DROP TABLE boutique_sync_server_shape",
        ]),
        // Transactions devices send in parts, as in the SQLite store: the unique index is what refuses
        // a transaction that changes one row in two parts.
        Migration(version: 7, name: "boutique_sync_server_v7_staged_transactions", statements: [
            """
            CREATE TABLE boutique_sync_server_staged(
                tenant text COLLATE "C" NOT NULL, replica bytea NOT NULL, txn bigint NOT NULL, stamp_time bigint NOT NULL,
                stamp_writer bytea NOT NULL, received_through bigint NOT NULL, change_count bigint NOT NULL, digest bigint NOT NULL,
                updated bigint NOT NULL, PRIMARY KEY (tenant, replica))
            """,
            """
            CREATE TABLE boutique_sync_server_staged_change(
                tenant text COLLATE "C" NOT NULL, replica bytea NOT NULL, position bigint NOT NULL, tbl bytea NOT NULL,
                key bytea NOT NULL, change bytea NOT NULL, PRIMARY KEY (tenant, replica, position))
            """,
            "CREATE UNIQUE INDEX boutique_sync_server_staged_row ON boutique_sync_server_staged_change(tenant, replica, tbl, key)",
        ]),
        // The users a device or tool reached the server as, as in the SQLite store.
        Migration(version: 8, name: "boutique_sync_server_v8_connected_users", statements: [
            "CREATE TABLE boutique_sync_server_user(tenant text COLLATE \"C\" NOT NULL, usr bytea NOT NULL, PRIMARY KEY (tenant, usr))",
            """
            INSERT INTO boutique_sync_server_user(tenant, usr)
                SELECT DISTINCT tenant, usr FROM boutique_sync_server_member WHERE role = 'owner' ON CONFLICT DO NOTHING
            """,
        ]),
        // The history of the store's log (`SyncServerID.history`), as in the SQLite store. A dump
        // restored is told apart by where its row lives, which the store reads with it (see
        // `PostgreSQLSyncStore.history()`): a restore writes the row anew, in another table.
        Migration(version: 9, name: "boutique_sync_server_v9_history", statements: [
            "ALTER TABLE boutique_sync_server_identity ADD COLUMN history text",
            "UPDATE boutique_sync_server_identity SET history = gen_random_uuid()::text",
        ]),
        // Who may read an attachment, as in the SQLite store: the rows that point at it (found by id)
        // and the users who uploaded it. Ids are hexadecimal text; tables, keys and users bytes.
        Migration(version: 10, name: "boutique_sync_server_v10_attachment_rights", statements: [
            """
            CREATE TABLE boutique_sync_server_attachment_pointer(
                tenant text COLLATE "C" NOT NULL, attachment text COLLATE "C" NOT NULL, tbl bytea NOT NULL, key bytea NOT NULL,
                PRIMARY KEY (tenant, attachment, tbl, key))
            """,
            """
            CREATE TABLE boutique_sync_server_attachment_uploader(
                tenant text COLLATE "C" NOT NULL, attachment text COLLATE "C" NOT NULL, usr bytea NOT NULL,
                PRIMARY KEY (tenant, attachment, usr))
            """,
            """
            CREATE TABLE boutique_sync_server_attachment_release(
                tenant text COLLATE "C" NOT NULL, attachment text COLLATE "C" NOT NULL, released_at bigint NOT NULL,
                PRIMARY KEY (tenant, attachment))
            """,
        ]),
        // Attachments' bytes (see `PostgreSQLAttachmentStore`), so that every instance sees them: an
        // upload per (tenant, id, size) with how many bytes it holds, its pieces as they came, and
        // the bytes a user has sent to show they hold an attachment the server has.
        Migration(version: 11, name: "boutique_sync_server_v11_attachment_bytes", statements: [
            """
            CREATE TABLE boutique_sync_server_attachment_upload(
                tenant text COLLATE "C" NOT NULL, attachment text COLLATE "C" NOT NULL, byte_count bigint NOT NULL,
                held bigint NOT NULL, uploaded boolean NOT NULL, proven bigint NOT NULL DEFAULT 0, changed_at bigint NOT NULL,
                PRIMARY KEY (tenant, attachment, byte_count))
            """,
            """
            CREATE TABLE boutique_sync_server_attachment_piece(
                tenant text COLLATE "C" NOT NULL, attachment text COLLATE "C" NOT NULL, byte_count bigint NOT NULL,
                piece_offset bigint NOT NULL, piece_end bigint NOT NULL, bytes bytea NOT NULL,
                PRIMARY KEY (tenant, attachment, byte_count, piece_offset))
            """,
        ]),
        // A number each change of a tenant's shapes moves on, as in the SQLite store: an instance
        // reads the shapes again when another instance changed them.
        Migration(version: 12, name: "boutique_sync_server_v12_shapes_version", statements: [
            "ALTER TABLE boutique_sync_server_tenant ADD COLUMN shapes_version bigint NOT NULL DEFAULT 0",
        ]),
        // An upload in progress is its uploader's own (see `SyncAttachmentStore`): the user is part of
        // an upload's key and of its pieces'. Uploads from before belong to no user (an empty name):
        // whole ones stay readable, unfinished ones are left to garbage collection.
        Migration(version: 13, name: "boutique_sync_server_v13_attachment_uploads_per_user", statements: [
            "ALTER TABLE boutique_sync_server_attachment_upload ADD COLUMN usr bytea NOT NULL DEFAULT ''::bytea",
            """
            ALTER TABLE boutique_sync_server_attachment_upload DROP CONSTRAINT boutique_sync_server_attachment_upload_pkey,
                ADD PRIMARY KEY (tenant, attachment, byte_count, usr)
            """,
            "ALTER TABLE boutique_sync_server_attachment_piece ADD COLUMN usr bytea NOT NULL DEFAULT ''::bytea",
            """
            ALTER TABLE boutique_sync_server_attachment_piece DROP CONSTRAINT boutique_sync_server_attachment_piece_pkey,
                ADD PRIMARY KEY (tenant, attachment, byte_count, usr, piece_offset)
            """,
        ]),
        // Who wrote each pointer, and whether it was vouched for, as in the SQLite store.
        Migration(version: 14, name: "boutique_sync_server_v14_vouched_pointers", statements: [
            "ALTER TABLE boutique_sync_server_attachment_pointer ADD COLUMN usr bytea, ADD COLUMN vouched boolean NOT NULL DEFAULT true",
        ]),
    ]

    /// The advisory lock the migrations run under: the two-integer form ("Bout", "Sync"), whose keys
    /// never meet the one-bigint keys of the tenants' locks.
    private static let lockKeys: (Int32, Int32) = (0x426F_7574, 0x5379_6E63)

    /// Brings the database to ``version``, inside the caller's transaction.
    ///
    /// - Throws: ``/BoutiqueDB/BoutiqueError/migrationHistoryMismatch(applied:planned:)`` when the database records
    ///   a migration this code does not know (a newer server upgraded it) or another under a known
    ///   version; nothing is changed then.
    static func upgrade(_ connection: PostgreSQLConnection) throws(BoutiqueError) {
        try connection.execute("SELECT pg_advisory_xact_lock($1, $2)", [.int4(lockKeys.0), .int4(lockKeys.1)])
        // Created if missing here, under the lock, so that concurrent first opens do not collide.
        try connection.execute("""
            CREATE TABLE IF NOT EXISTS boutique_sync_server_schema(
                version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())
            """)
        let found = try connection.execute("SELECT version, name FROM boutique_sync_server_schema ORDER BY version")
        var applied: [(version: Int, name: String)] = []
        for row in 0..<found.rowCount {
            applied.append((Int(try found.int32(row, 0)), try found.string(row, 1)))
        }
        let known = applied.count <= migrations.count
            && zip(applied, migrations).allSatisfy { $0.version == $1.version && $0.name == $1.name }
        guard known else { throw .migrationHistoryMismatch(applied: applied.map(\.name), planned: migrations.map(\.name)) }
        for migration in migrations.dropFirst(applied.count) {
            for statement in migration.statements { try connection.execute(statement) }
            try connection.execute(
                "INSERT INTO boutique_sync_server_schema(version, name) VALUES ($1, $2)",
                [.int4(Int32(migration.version)), .text(migration.name)])
        }
    }
}
