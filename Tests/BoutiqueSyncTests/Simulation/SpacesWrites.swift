import BoutiqueSync
import BoutiqueTestSupport
import Foundation

/// The writes a simulated user makes in the reminders app, from what their device shows: lists,
/// reminders in them, private tags and the links between reminders and tags; updates, deletes (a
/// list's delete cascades to its reminders and their links), moves of reminders between lists and of
/// links between reminders. The device does not know its user's role, so viewers write too (and are
/// refused), and a key another user took in a space this one cannot see collides (and is refused).
enum SpacesWrites {
    /// The reminders app's tables and columns, as the device shows them.
    static let columns: [(table: String, columns: [String])] = [
        ("remindersList", ["id", "title"]),
        ("reminder", ["id", "listID", "title"]),
        ("tag", ["id", "name"]),
        ("reminderTag", ["id", "reminderID", "tagID"]),
    ]

    /// Lists and tags are named after their creator mostly (`aL1`: one of ana's lists), reminders and
    /// links from pools every user draws from: keys collide across users now and then.
    static func listKeys(prefixes: [String]) -> [String] { prefixes.flatMap { prefix in (0..<3).map { "\(prefix)L\($0)" } } }
    static func tagKeys(prefixes: [String]) -> [String] { prefixes.flatMap { prefix in (0..<2).map { "\(prefix)T\($0)" } } }
    static let reminderKeys = (0..<10).map { "r\($0)" }
    static let linkKeys = (0..<10).map { "x\($0)" }

    /// The keys of each table a device shows, by table.
    static func keys(in database: DatabaseActor) async throws -> [String: [String]] {
        try await database.read { conn in
            var keys: [String: [String]] = [:]
            for (table, _) in columns {
                keys[table] = try conn.fetchAll("SELECT id FROM \(table) ORDER BY id").compactMap { row in
                    if case .text(let key) = row.values[0] { key } else { nil }
                }
            }
            return keys
        }
    }

    /// Each row's parent (its second column) as the device shows it, for moves that go somewhere else.
    static func parents(in database: DatabaseActor, table: String, column: String) async throws -> [String: String] {
        try await database.read { conn in
            var parents: [String: String] = [:]
            for row in try conn.fetchAll("SELECT id, \(column) FROM \(table)") {
                if case .text(let key) = row.values[0], case .text(let parent) = row.values[1] { parents[key] = parent }
            }
            return parents
        }
    }

    /// One random transaction of one to four statements on `device`; returns the rows it deleted
    /// (cascades included), the deletes its user meant.
    static func random(
        on device: SimulatedDevice, user: String, prefixes: [String], step: Int, random: inout SeededRandom
    ) async throws -> [SimulatedRow] {
        guard let database = device.database else { return [] }
        let before = try await keys(in: database)
        var lists = before["remindersList"] ?? []
        var reminders = before["reminder"] ?? []
        var tags = before["tag"] ?? []
        var links = before["reminderTag"] ?? []
        // Kept up to date as the transaction's statements are chosen, so that a later statement of it
        // never names a row an earlier one deleted, by itself or by a cascade.
        var listOf = try await parents(in: database, table: "reminder", column: "listID")
        var reminderOf = try await parents(in: database, table: "reminderTag", column: "reminderID")
        var tagOf = try await parents(in: database, table: "reminderTag", column: "tagID")
        func dropLinks(_ isGone: (String) -> Bool) { links.removeAll { isGone($0) } }
        let own = String(user.prefix(1))
        // Mostly the user's own names; sometimes another user's, which may be taken where this one cannot see.
        func named(_ pool: (String) -> [String]) -> [String] { pool(random.chance(90) ? own : random.pick(prefixes)) }
        var statements: [(String, [DatabaseValue])] = []
        let count = random.chance(30) ? random.int(in: 2...4) : 1
        for part in 0..<count {
            let value = DatabaseValue.text("\(device.name)-\(step)-\(part)")
            switch random.below(100) {
            case 0..<12:
                guard let key = free(named { listKeys(prefixes: [$0]) }, taken: lists, &random) else { continue }
                lists.append(key)
                statements.append(("INSERT INTO remindersList(id, title) VALUES (?, ?)", [.text(key), value]))
            case 12..<20:
                guard !lists.isEmpty else { continue }
                statements.append(("UPDATE remindersList SET title = ? WHERE id = ?", [value, .text(random.pick(lists))]))
            case 20..<24:
                guard !lists.isEmpty else { continue }
                let key = random.pick(lists)
                lists.removeAll { $0 == key }
                let gone = Set(reminders.filter { listOf[$0] == key })
                reminders.removeAll { gone.contains($0) }
                dropLinks { reminderOf[$0].map(gone.contains) ?? false }
                statements.append(("DELETE FROM remindersList WHERE id = ?", [.text(key)]))
            case 24..<42:
                guard !lists.isEmpty, let key = free(reminderKeys, taken: reminders, &random) else { continue }
                reminders.append(key)
                let list = random.pick(lists)
                listOf[key] = list
                statements.append(("INSERT INTO reminder(id, listID, title) VALUES (?, ?, ?)", [.text(key), .text(list), value]))
            case 42..<54:
                guard !reminders.isEmpty else { continue }
                statements.append(("UPDATE reminder SET title = ? WHERE id = ?", [value, .text(random.pick(reminders))]))
            case 54..<64:
                // A move to another list: the reminder and its links change space.
                guard !reminders.isEmpty else { continue }
                let key = random.pick(reminders)
                let elsewhere = lists.filter { $0 != listOf[key] }
                guard !elsewhere.isEmpty else { continue }
                let list = random.pick(elsewhere)
                listOf[key] = list
                statements.append(("UPDATE reminder SET listID = ? WHERE id = ?", [.text(list), .text(key)]))
            case 64..<70:
                guard !reminders.isEmpty else { continue }
                let key = random.pick(reminders)
                reminders.removeAll { $0 == key }
                dropLinks { reminderOf[$0] == key }
                statements.append(("DELETE FROM reminder WHERE id = ?", [.text(key)]))
            case 70..<76:
                guard let key = free(named { tagKeys(prefixes: [$0]) }, taken: tags, &random) else { continue }
                tags.append(key)
                statements.append(("INSERT INTO tag(id, name) VALUES (?, ?)", [.text(key), value]))
            case 76..<79:
                guard !tags.isEmpty else { continue }
                statements.append(("UPDATE tag SET name = ? WHERE id = ?", [value, .text(random.pick(tags))]))
            case 79..<81:
                guard !tags.isEmpty else { continue }
                let key = random.pick(tags)
                tags.removeAll { $0 == key }
                dropLinks { tagOf[$0] == key }
                statements.append(("DELETE FROM tag WHERE id = ?", [.text(key)]))
            case 81..<93:
                guard !reminders.isEmpty, !tags.isEmpty, let key = free(linkKeys, taken: links, &random) else { continue }
                links.append(key)
                let (reminder, tag) = (random.pick(reminders), random.pick(tags))
                reminderOf[key] = reminder
                tagOf[key] = tag
                statements.append(("INSERT INTO reminderTag(id, reminderID, tagID) VALUES (?, ?, ?)", [.text(key), .text(reminder), .text(tag)]))
            case 93..<97:
                // A link moved to another reminder: the second level of the chain changes space alone.
                guard !links.isEmpty else { continue }
                let key = random.pick(links)
                let elsewhere = reminders.filter { $0 != reminderOf[key] }
                guard !elsewhere.isEmpty else { continue }
                let reminder = random.pick(elsewhere)
                reminderOf[key] = reminder
                statements.append(("UPDATE reminderTag SET reminderID = ? WHERE id = ?", [.text(reminder), .text(key)]))
            default:
                guard !links.isEmpty else { continue }
                let key = random.pick(links)
                links.removeAll { $0 == key }
                statements.append(("DELETE FROM reminderTag WHERE id = ?", [.text(key)]))
            }
        }
        guard !statements.isEmpty else { return [] }
        let batch = statements
        if SimulationTrace.isOn { print("WRITE \(device.name) (\(user)) step \(step): \(batch)") }
        try await database.write { conn in
            for (sql, arguments) in batch { try conn.execute(sql, arguments) }
        }
        // Gone since: the rows it deleted, by a statement or a cascade, those it inserted included.
        let after = try await keys(in: database)
        var written: [String: Set<String>] = [:]
        for (sql, arguments) in batch where sql.hasPrefix("INSERT INTO ") {
            guard case .text(let key) = arguments[0], let table = sql.dropFirst(12).split(separator: "(").first else { continue }
            written[String(table), default: []].insert(key)
        }
        var deleted: [SimulatedRow] = []
        for (table, _) in columns {
            let remaining = Set(after[table] ?? [])
            for key in Set(before[table] ?? []).union(written[table] ?? []) where !remaining.contains(key) {
                deleted.append(SimulatedRow(table: table.lowercased(), key: .text(key)))
            }
        }
        return deleted
    }

    private static func free(_ pool: [String], taken: [String], _ random: inout SeededRandom) -> String? {
        let candidates = pool.filter { !taken.contains($0) }
        return candidates.isEmpty ? nil : random.pick(candidates)
    }
}

/// A row by its table (lowercased, as sync names tables) and key.
struct SimulatedRow: Hashable, Sendable, CustomStringConvertible {
    let table: String
    let key: DatabaseValue

    var description: String { "\(table) \(key)" }
}
