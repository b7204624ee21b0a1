import BoutiqueSync
import BoutiqueSyncServer
import Foundation

/// What must hold once the network healed and every device synced: nothing pending, every device
/// equal to the server, the server equal to the reference model of every change it accepted, no
/// change applied twice, and every acknowledged push in the server's log.
enum ConvergenceCheck {
    static let tables: [(name: String, columns: [String], defaults: [String: DatabaseValue])] = [
        ("note", ["id", "title", "body", "rank", "color"], ["title": .text("")]),
        ("tag", ["id", "noteid", "label"], [:]),
    ]

    static func check(
        devices: [SimulatedDevice], server: SyncServer, tenant: String, concurrentLosses: inout ConcurrentEditCheck.Tally
    ) async throws -> [String] {
        var failures: [String] = []
        // Everything the server accepted, in its order.
        var log: [ServerChange] = []
        var cursor: Int64 = 0
        while true {
            let page = try await server.pull(PullRequest(replica: "reference-model", cursor: cursor, limit: 5_000), tenant: tenant)
            log += page.changes
            cursor = page.nextCursor
            if !page.hasMore { break }
        }
        var model = ReferenceModel()
        var seen: Set<String> = []
        for entry in log {
            model.apply(entry.change)
            let identity = "\(entry.change.table)|\(entry.change.key)|\(entry.change.kind)|\(entry.change.stamp)"
            if !seen.insert(identity).inserted { failures.append("the server applied \(identity) twice") }
        }
        // Every acknowledged write is there, unless a later one by the rule superseded it, or the merge
        // discarded it and its writer was told.
        for device in devices {
            let written = device.pushedWriters
            for push in device.network.deliveredPushes where push.response.outcome == .accepted {
                // A transaction the server refused is handled, not applied: its device undid it.
                let refused = Set((push.response.refusals ?? []).map(\.transactionID))
                for transaction in push.request.transactions where transaction.id <= push.response.appliedThrough && !refused.contains(transaction.id) {
                    for change in transaction.changes where !model.holds(change) {
                        failures.append("\(device.name): acknowledged \(change.kind) of \(change.table) \(change.key) at \(change.stamp) is not on the server")
                    }
                    // A write the file forgot (restored from an older backup) cannot be reported by it;
                    // a delete of its own came after the edit, whatever the stamps say (a clock that
                    // went back): nothing was discarded behind its back.
                    for change in transaction.changes {
                        guard let deleter = model.deleter(discarding: change), !written.contains(deleter),
                            !device.forgottenWriters.contains(change.stamp.replica)
                        else { continue }
                        let told = device.losses.contains { $0.table == change.table && $0.key == change.key && !($0.stamp < change.stamp) }
                        if !told {
                            if SimulationTrace.isOn {
                                for entry in log where entry.change.key == change.key && entry.change.table == change.table { print("TRACE log", entry.sequence, entry.change) }
                                print("TRACE losses of \(device.name):", device.losses.filter { $0.key == change.key })
                            }
                            failures.append("\(device.name): acknowledged update of \(change.table) \(change.key) at \(change.stamp) was discarded by a delete and not reported")
                        }
                    }
                }
            }
            // A loss goes to the device whose write it was, and to no other: one of the writers it made
            // (a push whose every answer was lost still reached the server) or pushed.
            let mine = written.union(device.madeIdentifiers.withLock { $0 })
            for loss in device.losses where !mine.contains(loss.stamp.replica) {
                failures.append("\(device.name) was told of a loss of \(loss.table) \(loss.key) at \(loss.stamp), a write it did not make")
            }
        }

        failures += ConcurrentEditCheck.check(devices: devices, log: log, model: model, tally: &concurrentLosses)

        // The server's state, page by page.
        var state: [String: [DatabaseValue: RowRegister]] = [:]
        var position: SnapshotPosition?
        repeat {
            let page = try await server.snapshot(SnapshotRequest(replica: "reference-model", after: position, limit: 500), tenant: tenant)
            for row in page.rows { state[row.table, default: [:]][row.key] = row.state }
            position = page.next
        } while position != nil

        for table in tables {
            let expected = model.visible(table: table.name)
            var serverRows: [DatabaseValue: [String: DatabaseValue]] = [:]
            for (key, row) in state[table.name] ?? [:] where row.isVisible { serverRows[key] = row.visibleValues }
            if serverRows != expected {
                failures.append("server's \(table.name) differs from the reference model: server \(describe(serverRows)), model \(describe(expected))")
            }
            for device in devices {
                guard let database = device.database else { continue }
                let rows = try await database.read { conn in
                    try conn.fetchAll("SELECT \(table.columns.joined(separator: ", ")) FROM \(table.name)")
                }
                var local: [DatabaseValue: [String: DatabaseValue]] = [:]
                for row in rows { local[row.values[0]] = Dictionary(uniqueKeysWithValues: zip(table.columns, row.values)) }
                var wanted: [DatabaseValue: [String: DatabaseValue]] = [:]
                for (key, values) in expected {
                    var full: [String: DatabaseValue] = [:]
                    for column in table.columns { full[column] = values[column] ?? table.defaults[column] ?? .null }
                    full["id"] = key
                    wanted[key] = full
                }
                if local != wanted {
                    let keys = Set(local.keys).union(wanted.keys).filter { local[$0] != wanted[$0] }
                    if SimulationTrace.isOn {
                        for key in keys {
                            let local = try await database.read { conn in
                                try conn.fetchValue("SELECT state FROM boutique_sync_row WHERE tbl = ? AND key = ?", [.text(table.name), key])
                            }
                            if case .blob(let bytes)? = local { print("TRACE \(device.name) state \(key):", try RowRegister(record: bytes)) }
                            print("TRACE server state \(key):", state[table.name]?[key] as Any, "device cursor", try await device.cursor(), "log end", log.last?.sequence as Any)
                            let cdc = try await database.read { conn in
                                try conn.fetchAll("SELECT c.change_id, c.change_txn_id, c.change_type, c.\"before\", c.\"after\", t.remote FROM turso_cdc c LEFT JOIN boutique_sync_txn t ON t.change_txn_id = c.change_txn_id WHERE c.table_name = ?", [.text(table.name)])
                            }
                            for row in cdc {
                                let images = [row.values[3], row.values[4]].map { value -> String in
                                    if case .blob(let bytes) = value, let decoded = try? RecordDecoder.decode(bytes) { return "\(decoded)" } else { return "-" }
                                }
                                if images.contains(where: { $0.contains("\"\(key)\"") || $0.contains("\(key),") }) { print("TRACE cdc", row.values[0], row.values[1], row.values[2], row.values[5], images) }
                            }
                            for entry in log where entry.change.key == key && entry.change.table == table.name { print("TRACE log", entry.sequence, entry.change) }
                        }
                    }
                    failures.append("\(device.name)'s \(table.name) differs from the server: device \(describe(local.filter { keys.contains($0.key) })), server \(describe(wanted.filter { keys.contains($0.key) }))")
                }
            }
        }
        for device in devices {
            if let sync = device.sync, case let pending = await sync.status.pendingCount, pending != 0 {
                failures.append("\(device.name) still has \(pending) transactions to push")
            }
        }
        return failures
    }

    private static func describe(_ rows: [DatabaseValue: [String: DatabaseValue]]) -> String {
        rows.sorted { $0.key.description < $1.key.description }.map { key, values in
            "\(key){" + values.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",") + "}"
        }.joined(separator: " ")
    }
}
