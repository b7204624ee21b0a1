import BoutiqueDB
import BoutiqueSQLite
import Foundation

// The listings of the Models and Queries article's database-functions section.

enum ModelsAndQueriesFunctions {
    struct Exclaim: ScalarDatabaseFunction {
        let name = "exclaim"
        let argumentCount = 1
        let isDeterministic = true

        func invoke(_ arguments: [DatabaseValue]) throws -> DatabaseValue {
            (try String(functionArgument: arguments[0]) + "!").functionResult
        }

        func callAsFunction(_ text: some QueryExpression<String>) -> SQLExpression<String> {
            SQLExpression(callFragment([text.queryFragment]))
        }
    }

    static let exclaim = Exclaim()

    static func open(url: URL) async throws -> BoutiqueDB {
        var options = BoutiqueDB.Options()
        options.prepareDatabase { conn in try conn.add(function: exclaim) }
        let db = try await BoutiqueDB.open(url: url, options: options)
        return db
    }

    static func titles(_ db: BoutiqueDB) async throws -> [String] {
        try await db.read { conn in
            try ModelsAndQueries.Reminder.all.select { exclaim($0.title) }.fetchAll(conn)
        }
    }
}
