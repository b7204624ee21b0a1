import BoutiqueDB
import BoutiqueSQLite
import Foundation

// The listings of the Models and Queries article's database-functions section.

@DatabaseFunction(isDeterministic: true)
func exclaim(_ text: String) -> String {
    text + "!"
}

@DatabaseFunction(as: (([String].JSONRepresentation) -> [String].JSONRepresentation).self)
func exclaimAll(_ strings: [String]) -> [String] {
    strings.map { $0 + "!" }
}

@DatabaseFunction
func mode(priority priorities: some Sequence<Priority?>) -> Priority? {
    var counts: [Priority: Int] = [:]
    for case let priority? in priorities { counts[priority, default: 0] += 1 }
    return counts.max { $0.value < $1.value }?.key
}

public enum ModelsAndQueriesFunctions {
    typealias Reminder = ModelsAndQueries.Reminder

    /// Runs the section's queries on the article's rows; returns a line per result, for the tests.
    @MainActor
    public static func run() async throws -> [String] {
        var options = BoutiqueDB.Options()
        options.prepareDatabase { conn in
            try conn.add(function: $exclaim)
            try conn.add(function: $exclaimAll)
            try conn.add(function: $mode)
            try conn.add(function: Exclaim())
        }
        let db = try await BoutiqueDB.open(
            url: BoutiqueDB.inMemoryURL(), migrations: ModelsAndQueries.migrations, options: options)
        try await db.write { conn in try ModelsAndQueries.seed(conn) }
        let titles = try await titles(db)
        let lines = try await db.read { conn in
            let modes = try modes(conn).map { "\($0.0):\($0.1.map { "\($0)" } ?? "nil")" }
            let open = try openModes(conn).map { "\($0.0):\($0.1.map { "\($0)" } ?? "nil")" }
            let all = try Reminder.all.select { $exclaimAll($0.title.jsonGroupArray()) }.fetchOne(conn) ?? []
            return [modes.joined(separator: ","), open.joined(separator: ","), all.joined(separator: ",")]
        }
        await db.close()
        return [titles.joined(separator: ",")] + lines
    }

    static func open(url: URL) async throws -> BoutiqueDB {
        var options = BoutiqueDB.Options()
        options.prepareDatabase { conn in
            try conn.add(function: $exclaim)
            try conn.add(function: $mode)
        }
        let db = try await BoutiqueDB.open(url: url, options: options)
        return db
    }

    static func titles(_ db: BoutiqueDB) async throws -> [String] {
        try await db.read { conn in
            try Reminder.all.select { $exclaim($0.title) }.fetchAll(conn)
        }
    }

    static func modes(_ conn: DatabaseConnection) throws -> [(Int, Priority?)] {
        let modes = try Reminder.all.group(by: \.listID).select { ($0.listID, $mode(priority: $0.priority)) }.fetchAll(conn)
        return modes
    }

    static func openModes(_ conn: DatabaseConnection) throws -> [(Int, Priority?)] {
        let open = try Reminder.all.group(by: \.listID)
            .select { ($0.listID, $mode(priority: $0.priority, filter: !$0.isDone)) }
            .fetchAll(conn)
        return open
    }

    struct Exclaim: ScalarDatabaseFunction {
        let name = "exclaim"
        let argumentCount = 1
        let isDeterministic = true

        func invoke(_ arguments: inout RowDecoder) throws -> DatabaseValue {
            String.encode(try arguments.decode(String.self) + "!")
        }
    }
}
