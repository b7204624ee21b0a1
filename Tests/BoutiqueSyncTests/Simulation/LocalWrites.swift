import Foundation
import BoutiqueSync
import BoutiqueTestSupport

/// The writes a simulated user makes: inserts, updates of random column subsets, deletes, re-inserts
/// of deleted keys (the key pools are small), and edits of tags whose foreign key points at a note,
/// moves of tags from note to note among them.
enum LocalWrites {
    static let noteKeys = (0..<10).map { "n\($0)" }
    static let tagKeys = (0..<10).map { "t\($0)" }

    /// A write by another process sharing the device's file, as a widget or an extension makes it: a
    /// database of its own opened on the file, with no sync at all. BoutiqueDB stamps it at its commit
    /// (on the device's virtual clock); the device's sync pushes it later.
    static func fromAnotherProcess(
        on device: SimulatedDevice, step: Int, random: inout SeededRandom, time: VirtualTime, identifiers: SeededIdentifiers
    ) async throws {
        let widget = try await DatabaseActor.open(
            url: device.url, migrations: device.isUpgraded ? SyncTestSchema.upgraded : SyncTestSchema.plan,
            // Its locks are waited for as long as the suite's other deadlines stretch (under a sanitizer).
            options: DatabaseOptions(multiProcess: true, busyTimeout: .seconds(5 * syncTimeoutScale)))
        let skew = device.skew
        // The widget's writer is the file's too: its writes are the device's own.
        let writer = identifiers.next()
        device.madeIdentifiers.withLock { _ = $0.insert(writer) }
        await widget.setCommitStampClock(
            { UInt64(max(0, Int64(time.milliseconds) + skew.value.load(ordering: .relaxed))) }, writer: writer)
        do {
            try await self.random(on: device, in: widget, step: step, random: &random)
        } catch {
            await widget.close()
            throw error
        }
        await widget.close()
    }

    static func random(on device: SimulatedDevice, step: Int, random: inout SeededRandom) async throws {
        guard let database = device.database else { return }
        try await self.random(on: device, in: database, step: step, random: &random)
    }

    static func random(on device: SimulatedDevice, in database: DatabaseActor, step: Int, random: inout SeededRandom) async throws {
        let (notes, tags) = try await database.read { conn in
            (try conn.fetchAll("SELECT id FROM note ORDER BY id").map { $0.values[0] },
             try conn.fetchAll("SELECT id FROM tag ORDER BY id").map { $0.values[0] })
        }
        var statements: [(String, [DatabaseValue])] = []
        let count = random.chance(20) ? random.int(in: 2...3) : 1
        var localNotes = notes
        var localTags = tags
        for part in 0..<count {
            let value = DatabaseValue.text("\(device.name)-\(step)-\(part)")
            switch random.below(100) {
            case 0..<25:
                let free = noteKeys.map(DatabaseValue.text).filter { !localNotes.contains($0) }
                guard !free.isEmpty else { continue }
                let key = random.pick(free)
                localNotes.append(key)
                if device.isUpgraded {
                    statements.append((
                        "INSERT INTO note(id, title, body, rank, color) VALUES (?, ?, ?, ?, ?)",
                        [key, value, random.chance(30) ? .null : value, .integer(Int64(random.below(5))), value]))
                } else {
                    statements.append((
                        "INSERT INTO note(id, title, body, rank) VALUES (?, ?, ?, ?)",
                        [key, value, random.chance(30) ? .null : value, .integer(Int64(random.below(5)))]))
                }
            case 25..<55:
                guard !localNotes.isEmpty else { continue }
                var columns = ["title", "body", "rank"] + (device.isUpgraded ? ["color"] : [])
                columns = columns.filter { _ in random.chance(50) }
                if columns.isEmpty { columns = ["title"] }
                let assignments = columns.map { "\($0) = ?" }.joined(separator: ", ")
                let values: [DatabaseValue] = columns.map { $0 == "rank" ? .integer(Int64(random.below(100))) : value }
                statements.append(("UPDATE note SET \(assignments) WHERE id = ?", values + [random.pick(localNotes)]))
            case 55..<67:
                guard !localNotes.isEmpty else { continue }
                let key = random.pick(localNotes)
                localNotes.removeAll { $0 == key }
                statements.append(("DELETE FROM note WHERE id = ?", [key]))
            case 67..<82:
                let free = tagKeys.map(DatabaseValue.text).filter { !localTags.contains($0) }
                guard !free.isEmpty, !localNotes.isEmpty else { continue }
                let key = random.pick(free)
                localTags.append(key)
                let parent: DatabaseValue = random.chance(15) ? .null : random.pick(localNotes)
                statements.append(("INSERT INTO tag(id, noteID, label) VALUES (?, ?, ?)", [key, parent, value]))
            case 82..<87:
                guard !localTags.isEmpty else { continue }
                statements.append(("UPDATE tag SET label = ? WHERE id = ?", [value, random.pick(localTags)]))
            case 87..<92:
                // A move: the tag goes to another note, which another device may have deleted meanwhile.
                guard !localTags.isEmpty, !localNotes.isEmpty else { continue }
                let parent: DatabaseValue = random.chance(10) ? .null : random.pick(localNotes)
                statements.append(("UPDATE tag SET noteID = ? WHERE id = ?", [parent, random.pick(localTags)]))
            default:
                guard !localTags.isEmpty else { continue }
                let key = random.pick(localTags)
                localTags.removeAll { $0 == key }
                statements.append(("DELETE FROM tag WHERE id = ?", [key]))
            }
        }
        // An import-like write: the same rows changed several times in one transaction, the log
        // holding each step and the push one netted change per row.
        if random.chance(4), !localNotes.isEmpty {
            let note = random.pick(localNotes)
            let tag: DatabaseValue? = localTags.isEmpty ? nil : random.pick(localTags)
            for round in 0..<3 {
                let value = DatabaseValue.text("\(device.name)-\(step)-import-\(round)")
                statements.append(("UPDATE note SET title = ?, rank = coalesce(rank, 0) + 1 WHERE id = ?", [value, note]))
                if let tag { statements.append(("UPDATE tag SET label = ? WHERE id = ?", [value, tag])) }
            }
        }
        // A bulk edit of every row, twice: more log rows than one push carries (the notes app's
        // ``SimulatedApp/pushRowLimit``), so it goes in parts; now and then with a rank too (never the
        // one the server's rule refuses: a refused transaction sent in parts is the spaces simulator's).
        if random.chance(2), !localNotes.isEmpty {
            let rank: Int64? = random.chance(25) ? Int64(random.below(4)) : nil
            for round in 0..<2 {
                let value = DatabaseValue.text("\(device.name)-\(step)-bulk-\(round)")
                if let rank {
                    statements.append(("UPDATE note SET body = ?, rank = ?", [value, .integer(rank)]))
                } else {
                    statements.append(("UPDATE note SET body = ?", [value]))
                }
                statements.append(("UPDATE tag SET label = ?", [value]))
            }
        }
        guard !statements.isEmpty else { return }
        let batch = statements
        if SimulationTrace.isOn { print("WRITE \(device.name) step \(step): \(batch)") }
        let changed = try await database.write { conn -> Int in
            var changed = 0
            for (sql, arguments) in batch {
                try conn.execute(sql, arguments)
                changed += conn.changes
            }
            return changed
        }
        if SimulationTrace.isOn, changed > 0 {
            let last = try await database.read { conn in
                try conn.fetchAll("SELECT change_type, table_name FROM turso_cdc WHERE change_txn_id = (SELECT max(change_txn_id) FROM turso_cdc)")
            }
            print("LOGGED \(device.name) step \(step) changed \(changed): \(last.map { "\($0.values[0]) \($0.values[1])" })")
        }
    }
}
