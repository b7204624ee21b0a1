import BoutiqueSync
import BoutiqueSyncServer

/// What must hold once the network healed and every device synced to quiescence:
///
/// - each device's tables are the server's rows of its user's spaces (the common space, their
///   private space, the lists they are a member of), less the rows waiting for a parent the user
///   cannot see (a link to another user's private tag), and the rows waiting for those;
/// - every write the server acknowledged is there, unless a later write superseded it;
/// - every transaction the server refused is on no device and not on the server;
/// - nothing is left to push.
enum SpacesConvergence {
    /// The first column is the key.
    private static let parents: [String: [(column: String, table: String)]] = [
        "reminder": [("listid", "reminderslist")],
        "remindertag": [("reminderid", "reminder"), ("tagid", "tag")],
    ]
    private static let order = ["reminderslist", "tag", "reminder", "remindertag"]

    static func check(devices: [SimulatedDevice], view: SpacesServerView, restoredAfter: [String: Int], refusalSteps: [String: [Int]]) async throws -> [String] {
        var failures: [String] = []
        let server = try await view.rows()
        var expectedByUser: [String: [String: [DatabaseValue: [String: DatabaseValue]]]] = [:]
        for device in devices {
            guard let database = device.database else { continue }
            let user = device.network.user
            if expectedByUser[user] == nil {
                expectedByUser[user] = expected(for: try await view.visibleSpaces(of: user, at: nil), server: server)
            }
            let expected = expectedByUser[user] ?? [:]
            for (table, columns) in SpacesWrites.columns {
                let name = table.lowercased()
                let rows = try await database.read { conn in
                    try conn.fetchAll("SELECT \(columns.joined(separator: ", ")) FROM \(table)").map(\.values)
                }
                var local: [DatabaseValue: [String: DatabaseValue]] = [:]
                for values in rows { local[values[0]] = Dictionary(uniqueKeysWithValues: zip(columns.map { $0.lowercased() }, values)) }
                let wanted = expected[name] ?? [:]
                if local != wanted {
                    let keys = Set(local.keys).union(wanted.keys).filter { local[$0] != wanted[$0] }.sorted { $0.description < $1.description }
                    let detail = keys.prefix(4).map { key in
                        "\(key): device \(local[key].map(describe) ?? "absent"), expected \(wanted[key].map(describe) ?? "absent") "
                            + "(server \(server[SimulatedRow(table: name, key: key)].map { "\($0.space.rawValue) visible \($0.state.isVisible)" } ?? "none"))"
                    }
                    failures.append("\(device.name) (\(user))'s \(table) differs from the server's rows of its spaces: \(detail.joined(separator: "; "))")
                }
            }
            if let sync = device.sync, case let pending = await sync.status.pendingCount, pending != 0 {
                failures.append("\(device.name) still has \(pending) transactions to push")
            }
        }

        // Acknowledged writes hold; refused ones are nowhere.
        var logged: Set<String> = []
        for entry in view.log { logged.insert(identity(entry.entry.change.table, entry.entry.change.key, entry.entry.change.stamp)) }
        var heldStamps: [String: Set<String>] = [:]
        for device in devices {
            guard let database = device.database else { continue }
            let states = try await database.read { conn in try conn.fetchAll("SELECT tbl, key, state FROM boutique_sync_row").map(\.values) }
            var stamps: Set<String> = []
            for values in states {
                guard case .text(let table) = values[0], case .blob(let bytes) = values[2] else { continue }
                let state = try RowRegister(record: bytes)
                for stamp in [state.existence?.stamp, state.lastDelete].compactMap({ $0 }) + state.cells.values.map(\.stamp) {
                    stamps.insert(identity(table, values[1], stamp))
                }
            }
            heldStamps[device.name] = stamps
        }
        for device in devices {
            let steps = refusalSteps[device.name] ?? []
            for (index, push) in device.network.deliveredPushes.enumerated() where push.response.outcome == .accepted {
                let refused = Set((push.response.refusals ?? []).map(\.transactionID))
                for transaction in push.request.transactions where transaction.id <= push.response.appliedThrough {
                    if !refused.contains(transaction.id) {
                        for change in transaction.changes where !view.model.holds(change) {
                            failures.append("\(device.name): acknowledged \(change.kind) of \(change.table) \(change.key) at \(change.stamp) is not on the server")
                        }
                        continue
                    }
                    // A file restored from a backup taken before the refusal may push the same transaction
                    // again, under a new replica id, to a server where its user may now make it.
                    if let restored = restoredAfter[device.name], index < steps.count, restored >= steps[index] { continue }
                    for change in transaction.changes {
                        let id = identity(change.table, change.key, change.stamp)
                        if logged.contains(id) {
                            failures.append("\(device.name): refused \(change.kind) of \(change.table) \(change.key) at \(change.stamp) is on the server")
                        }
                        for (holder, stamps) in heldStamps where stamps.contains(id) {
                            failures.append("\(holder) holds the refused \(change.kind) of \(change.table) \(change.key) at \(change.stamp) by \(device.name)")
                        }
                    }
                }
            }
        }
        return failures
    }

    /// The rows a user's devices show: the visible rows of their spaces, less those whose parent is not
    /// among them (they wait), table by table from the parents down.
    static func expected(
        for spaces: Set<SyncSpace>, server: [SimulatedRow: (state: RowRegister, space: SyncSpace)]
    ) -> [String: [DatabaseValue: [String: DatabaseValue]]] {
        var result: [String: [DatabaseValue: [String: DatabaseValue]]] = [:]
        let columns = Dictionary(uniqueKeysWithValues: SpacesWrites.columns.map { ($0.table.lowercased(), $0.columns.map { $0.lowercased() }) })
        for table in order {
            var rows: [DatabaseValue: [String: DatabaseValue]] = [:]
            for (row, held) in server where row.table == table && held.state.isVisible && spaces.contains(held.space) {
                let values = held.state.visibleValues
                let waits = (parents[table] ?? []).contains { parent in
                    guard let value = values[parent.column] else { return true }
                    return result[parent.table]?[value] == nil
                }
                if waits { continue }
                var shown: [String: DatabaseValue] = [:]
                for column in columns[table] ?? [] { shown[column] = values[column] ?? .text("") }
                shown["id"] = row.key
                rows[row.key] = shown
            }
            result[table] = rows
        }
        return result
    }

    private static func identity(_ table: String, _ key: DatabaseValue, _ stamp: SyncStamp) -> String {
        "\(table.lowercased())|\(key)|\(stamp)"
    }

    private static func describe(_ values: [String: DatabaseValue]) -> String {
        "{" + values.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",") + "}"
    }
}
