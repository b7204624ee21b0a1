/// What ``BoutiqueSync``'s initializer reads and prepares, in one write transaction: sync's tables, the
/// synced tables' descriptions, the replica id and the clock.
struct SyncSetup: Sendable {
    let tables: [String: SyncedTable]
    let foreignKeys: [String: [SyncedTable]]
    let replica: String
    let schemaVersion: Int

    static func prepare(database: DatabaseActor, tables names: [String], options: SyncOptions) async throws -> SyncSetup {
        let capture = database.options.changeCapture
        guard capture.mode == .full else {
            throw BoutiqueError.syncConfiguration(
                table: "turso_cdc", reason: "sync pushes from the change log, which must record full images (mode .full), not .\(capture.mode)")
        }
        guard capture.retention == .unlimited else {
            throw BoutiqueError.syncConfiguration(
                table: "turso_cdc", reason: "the change log's retention must be unlimited: sync prunes it once the server has acknowledged")
        }
        guard !names.isEmpty else { throw BoutiqueError.syncConfiguration(table: "", reason: "no table to sync was named") }
        if let budget = options.attachmentCacheBytes, budget < 0 {
            throw BoutiqueError.invalidArgument("SyncOptions.attachmentCacheBytes is a byte count, 0 or more, not \(budget)")
        }
        let rowLevel = Set(options.rowLevelTables.map { $0.lowercased() })
        let collaborative = try CollaborativeColumns.parse(options.collaborativeText, synced: names)
        let schemaVersion = (try? await database.appliedMigrations().count) ?? 0
        let newReplica = options.makeIdentifier ?? SyncIdentity.newReplicaID
        let setup: SyncSetup
        do {
            setup = try await database.write { conn in
                var tables: [String: SyncedTable] = [:]
                for name in names {
                    let table = try SyncedTable.read(
                        name, rowLevel: rowLevel.contains(name.lowercased()), collaborative: collaborative[name.lowercased()] ?? [], from: conn)
                    tables[table.name.lowercased()] = table
                }
                var foreignKeys: [String: [SyncedTable]] = [:]
                for table in tables.values.sorted(by: { $0.name < $1.name }) {
                    let parents = try conn.fetchAll("SELECT DISTINCT \"table\" FROM pragma_foreign_key_list(?)", [.text(table.name)])
                    for parent in parents {
                        guard case .text(let name) = parent.values[0] else { continue }
                        foreignKeys[name.lowercased(), default: []].append(table)
                    }
                }
                let replica = try SyncMetadataSchema.prepare(conn, newReplica: newReplica)
                // From this commit on, BoutiqueDB stamps every local commit to these tables, in any process.
                try SyncedTableName.delete().execute(conn.connection)
                for name in tables.keys.sorted() { try SyncedTableName.insert { SyncedTableName(name: name) }.execute(conn.connection) }
                return SyncSetup(tables: tables, foreignKeys: foreignKeys, replica: replica, schemaVersion: schemaVersion)
            }
        } catch {
            throw BoutiqueSync.boutiqueError(error)
        }
        await database.reloadCommitStamps()
        await database.setCommitStampClock(options.wallClock, writer: options.makeIdentifier?())
        return setup
    }
}
