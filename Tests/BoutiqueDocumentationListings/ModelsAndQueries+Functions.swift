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

enum ModelsAndQueriesFunctions {
    typealias Reminder = ModelsAndQueries.Reminder

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
