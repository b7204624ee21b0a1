import BoutiqueDB
import Foundation

// The listings of the Models and Queries article's table aliases.

extension ModelsAndQueries {
    enum Sibling: AliasName {}

    static func aliases(_ conn: DatabaseConnection) throws -> [String] {
        let pairs = try Reminder
            .join(Reminder.as(Sibling.self).all) { $0.listID == $1.listID && $0.id < $1.id }
            .select { ($0.title, $1.title) }                                               // [(String, String)]
            .fetchAll(conn)

        return pairs.map { "\($0.0)&\($0.1)" }
    }

    /// Runs the table-alias listing on the article's seed rows.
    @MainActor
    public static func runAliases() async throws -> [String] {
        let db = try await BoutiqueDB.open(url: BoutiqueDB.inMemoryURL(), migrations: migrations)
        try await db.write { conn in try seed(conn) }
        let lines = try await db.read { conn in try aliases(conn) }
        await db.close()
        return lines
    }
}
