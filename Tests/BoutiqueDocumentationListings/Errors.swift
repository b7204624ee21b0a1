import BoutiqueDB
import Foundation

// The listings of the Errors article.

public enum Errors {
    @Table
    struct Tag: Sendable {
        let id: Int
        var name: String
    }

    @Table("tag")
    struct StrictTag: Sendable {
        let id: Int
        var name: String
        var color: String
    }

    static let plan = BoutiqueMigrationPlan {
        BoutiqueMigration("v1_tags") { conn in
            try conn.execute("CREATE TABLE tag (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, color TEXT)")
        }
    }

    /// The product description's error handling: a `switch` over the cases an app acts on.
    @MainActor
    public static func describeAdding(_ name: String, to db: BoutiqueDB) async -> String {
        do {
            try await db.write { conn in
                try Tag.insert { Tag.Draft(name: name) }.execute(conn)
            }
            return "added"
        } catch let error as BoutiqueError {
            switch error {
            case .sql(let code, let message):
                return "SQLite error (\(code)): \(message)"
            case .migrationFailed(let id, let message):
                return "Migration '\(id)' failed: \(message)"
            case .transactionInProgress:
                return "Write conflict occurred."
            default:
                return "BoutiqueDB error: \(error)"
            }
        } catch {
            return "Another error: \(error)"
        }
    }

    /// Adds a tag, or says that one of that name exists.
    @MainActor
    public static func addTag(named name: String, to db: BoutiqueDB) async throws -> String {
        do {
            try await db.write { conn in try Tag.insert { Tag.Draft(name: name) }.execute(conn) }
        } catch let error as BoutiqueError {
            guard error.resultCode == .constraintUnique else { throw error }
            return "A tag named \(name) already exists."
        }
        return "added"
    }

    /// The detail an `.sql` error carries, as a log line would show it.
    static func logLine(for error: BoutiqueError) -> String {
        guard case .sql(let code, let message) = error else { return error.description }
        let family = code.primary                 // .constraint
        let statement = message.sql ?? "-"        // the SQL that failed, when there was a statement
        return "\(family): \(message.text) in \(statement)"
    }

    /// What a decoding failure names.
    static func explain(_ error: BoutiqueError) -> String? {
        guard case .decoding(let failure) = error else { return nil }
        // "cannot decode tag.color as String: found NULL"
        return "\(failure.table).\(failure.column): expected \(failure.expectedType), found \(failure.found)"
    }

    /// Runs each listing once, for the tests.
    @MainActor
    public static func run() async throws -> [String] {
        let db = try await BoutiqueDB.open(url: BoutiqueDB.inMemoryURL(), migrations: plan)
        var lines = [try await addTag(named: "home", to: db), try await addTag(named: "home", to: db)]
        lines.append(await describeAdding("home", to: db))
        do {
            try await db.write { conn in try conn.execute("INSERT INTO tag (name) VALUES (NULL)") }
        } catch let error as BoutiqueError {
            lines.append(logLine(for: error))
        }
        do {
            _ = try await db.read { conn in try StrictTag.all.fetchAll(conn) }
        } catch let error as BoutiqueError {
            lines.append(explain(error) ?? "")
        }
        await db.close()
        lines.append(await describeAdding("work", to: db))
        return lines
    }
}
