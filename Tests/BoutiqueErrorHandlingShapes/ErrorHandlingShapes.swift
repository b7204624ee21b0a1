import BoutiqueDB
import Foundation

// The product description's error handling, in every shape an app writes it. This module builds with
// warnings as errors: each function here must compile without "'as' test is always true" and without
// crashing the compiler. The pattern that once crashed swift-frontend: a `do` that calls the API, a
// `catch let error as BoutiqueError`, and later in the same function a `try await` on a force-unwrapped
// value or a call of a rethrowing function (`map`). The tests run these functions too.

/// The app's database, as a global.
@MainActor public var db: BoutiqueDB!

/// Opens the global database; returns the id of the migration that failed, if one did.
@MainActor
public func openGlobalDatabase(url: URL, plan: BoutiqueMigrationPlan) async throws -> String? {
    var failedID: String?
    do { db = try await BoutiqueDB.open(url: url, migrations: plan) }
    catch let error as BoutiqueError { if case .migrationFailed(let id, _) = error { failedID = id } }
    guard failedID == nil else { return failedID }
    let notes = try await db!.read { conn in try Note.all.fetchAll(conn.connection) }
    _ = notes.map(\.title)
    _ = try await db.appliedMigrations.map(\.id)
    return nil
}

/// The same with a local optional database.
@MainActor
public func openLocalDatabase(url: URL, plan: BoutiqueMigrationPlan) async throws -> (failedID: String?, applied: [String]) {
    var local: BoutiqueDB?
    var failedID: String?
    do { local = try await BoutiqueDB.open(url: url, migrations: plan) }
    catch let error as BoutiqueError { if case .migrationFailed(let id, _) = error { failedID = id } }
    guard let opened = local else { return (failedID, []) }
    _ = try await local!.read { conn in try conn.fetchAll("SELECT * FROM note") }
    let applied = try await opened.appliedMigrations.map(\.id)
    await opened.close()
    return (failedID, applied)
}

/// A model holding its database in a property.
@MainActor
public final class NotesStore {
    public var db: BoutiqueDB!
    public var failedMigration: String?
    public var lastError: BoutiqueError?

    public init() {}

    public func open(url: URL, plan: BoutiqueMigrationPlan) async throws {
        do { db = try await BoutiqueDB.open(url: url, migrations: plan) }
        catch let error as BoutiqueError { if case .migrationFailed(let id, _) = error { failedMigration = id } }
        guard failedMigration == nil else { return }
        _ = try await db!.read { conn in try Note.all.fetchCount(conn) }
        _ = [1, 2].map { $0 * 2 }
    }

    /// The seed's `switch`, on a write that fails.
    public func add(title: String) async -> String {
        do {
            try await db.write { conn in
                try Note.insert { Note(id: UUID(), title: title, body: "") }.execute(conn.connection)
            }
            return "added"
        } catch let error as BoutiqueError {
            lastError = error
            switch error {
            case .sql(let code, let message):
                return "SQLite/Turso Engine Error (\(code)): \(message)"
            case .migrationFailed(let id, let message):
                return "Migration '\(id)' failed: \(message)"
            case .transactionInProgress:
                return "Write conflict occurred."
            default:
                return "BoutiqueDB Error: \(error)"
            }
        } catch {
            return "other: \(error)"
        }
    }
}

/// Off the main actor, with the engine itself.
public func openDatabaseActor(url: URL, plan: BoutiqueMigrationPlan) async throws -> String? {
    var database: DatabaseActor?
    var failedID: String?
    do { database = try await DatabaseActor.open(url: url, migrations: plan) }
    catch let error as BoutiqueError { if case .migrationFailed(let id, _) = error { failedID = id } }
    guard failedID == nil else { return failedID }
    _ = try await database!.read { conn in try Note.all.fetchAll(conn) }
    _ = try await database!.currentToken()
    _ = try await database!.appliedMigrations().map(\.id)
    await database?.close()
    return nil
}

/// Synchronous callers: the location helpers and a closure's statements.
public func locateDatabase(named filename: String) -> Result<URL, BoutiqueError> {
    do {
        let url = try BoutiqueDB.applicationSupportURL(filename: filename)
        _ = [filename].map { $0.count }
        return .success(url)
    } catch let error as BoutiqueError {
        _ = [error].map(\.description)
        return .failure(error)
    } catch {
        return .failure(.invalidArgument("\(error)"))
    }
}

/// A statement inside a write closure whose failure is handled there.
public func insertIgnoringDuplicates(_ conn: DatabaseConnection, id: UUID) throws -> Bool {
    do {
        try conn.execute(
            "INSERT INTO note(id, title, body, updatedAt) VALUES (?, 'x', '', 0)", [.text(id.uuidString.lowercased())])
        return true
    } catch let error as BoutiqueError {
        guard case .sql(let code, _) = error, code.primary == .constraint else { throw error }
        _ = try [1].map { value throws in value }
        return false
    }
}

/// The product description's live query, over the global database (created once `db` is set).
@MainActor
public final class NotesModel {
    @LiveQuery(db, { Note.all.order { $0.updatedAt.desc() }.asSelect() }) public var notes: [Note] = []

    public init() {}
}
