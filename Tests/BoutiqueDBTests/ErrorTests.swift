import BoutiqueDB
import Foundation
import Testing

/// Every failure surfaces as a typed error; bad files are refused and left as they were.
@Suite struct ErrorTests {
    struct DomainError: Error, Equatable {}

    @Test func aFileThatIsNotADatabaseIsRefusedAndLeftUntouched() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("notes.txt")
        let bytes = Data(String(repeating: "These are my notes, not a database. ", count: 200).utf8)
        try bytes.write(to: url)
        let error = await #expect(throws: BoutiqueError.self) {
            try await DatabaseActor.open(url: url, migrations: AppMigrations.plan)
        }
        #expect(error?.resultCode?.primary == .notADatabase)
        #expect(contents(of: url) == bytes)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
        #expect(leftovers == ["notes.txt"])
    }

    @Test func aDatabaseWithADamagedHeaderIsRefusedAndLeftUntouched() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("damaged.db")
        await (try await DatabaseActor.open(url: url, migrations: AppMigrations.plan)).close()
        var bytes = try #require(contents(of: url))
        bytes.replaceSubrange(0..<16, with: Data("Not SQLite at all".utf8.prefix(16)))
        try bytes.write(to: url)
        let error = await #expect(throws: BoutiqueError.self) {
            try await DatabaseActor.open(url: url, migrations: AppMigrations.plan)
        }
        #expect(error?.resultCode?.primary == .notADatabase)
        #expect(contents(of: url) == bytes)
    }

    /// Runs in a child process that gives up root, because root may write any file.
    @Test func aReadOnlyFileIsRefusedForWriting() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("readonly.db")
        let database = try await DatabaseActor.open(url: url, migrations: AppMigrations.plan)
        try await database.write { conn in
            try conn.execute("INSERT INTO note(id, title, body, updatedAt) VALUES ('1', 'kept', '', 0)")
        }
        await database.close()
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: url.path)
        let bytes = try #require(contents(of: url))

        let outcome = try await withTimeout(20) { try await Worker.run(["open", url.path, "--as-nobody"]) }
        #expect(outcome.status == 1, "\(outcome)")
        #expect(outcome.output.hasPrefix("error: sql "), "\(outcome)")
        let code = outcome.output.split(separator: " ").dropFirst(2).first.flatMap { Int32($0) }
        #expect(code.map { ResultCode(rawValue: $0).primary } == .readOnly, "\(outcome)")
        #expect(contents(of: url) == bytes)
    }

    @Test func useAfterCloseThrowsDatabaseClosed() async throws {
        let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: CounterMigrations.plan)
        await database.close()
        await #expect(throws: BoutiqueError.databaseClosed) { try await database.write { _ in } }
        await #expect(throws: BoutiqueError.databaseClosed) { try await database.read { _ in } }
        await #expect(throws: BoutiqueError.databaseClosed) { try await database.writeWithoutTransaction { _ in } }
        await #expect(throws: BoutiqueError.databaseClosed) { try await database.appliedMigrations() }
        await #expect(throws: BoutiqueError.databaseClosed) { try await database.checkForExternalChanges() }
        await database.close()  // a second close is harmless
    }

    @MainActor
    @Test func theFacadeThrowsDatabaseClosedAfterClose() async throws {
        let db = try await BoutiqueDB.open(url: BoutiqueDB.inMemoryURL(), migrations: AppMigrations.plan)
        await db.close()
        await #expect(throws: BoutiqueError.databaseClosed) { try await db.write { _ in } }
        await #expect(throws: BoutiqueError.databaseClosed) { try await db.read { _ in } }
    }

    @Test func sqlErrorsCarryTheExtendedCodeAndTheStatement() async throws {
        let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: AppMigrations.plan)
        let syntax = await #expect(throws: BoutiqueError.self) {
            try await database.write { conn in try conn.execute("INSERT INTO nowhere VALUES (1)") }
        }
        guard case .sql(let code, let message)? = syntax else {
            Issue.record("expected .sql, got \(String(describing: syntax))")
            return
        }
        #expect(code == .error)
        #expect(message.text.contains("nowhere"))
        #expect(message.sql == "INSERT INTO nowhere VALUES (1)")

        let duplicate = await #expect(throws: BoutiqueError.self) {
            try await database.write { conn in
                try conn.execute("INSERT INTO note(id, title, body, updatedAt) VALUES ('1', 'a', '', 0)")
                try conn.execute("INSERT INTO note(id, title, body, updatedAt) VALUES ('1', 'b', '', 0)")
            }
        }
        #expect(duplicate?.resultCode == .constraintPrimaryKey)
        #expect(try await database.read { conn in try conn.count("note") } == 0, "the first insert rolled back")
        await database.close()
    }

    @Test func errorsFromTheRawConnectionBecomeBoutiqueErrors() async throws {
        let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: AppMigrations.plan)
        let error = await #expect(throws: BoutiqueError.self) {
            try await database.write { conn in try conn.connection.execute("UPDATE note SET nope = 1") }
        }
        #expect(error?.resultCode == .error)
        await database.close()
    }

    @Test func theClosuresOwnErrorsPassThroughUnchanged() async throws {
        let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: AppMigrations.plan)
        await #expect(throws: DomainError()) {
            try await database.write { conn in
                try conn.execute("INSERT INTO note(id, title, body, updatedAt) VALUES ('1', 'a', '', 0)")
                throw DomainError()
            }
        }
        await #expect(throws: DomainError()) { try await database.read { _ in throw DomainError() } }
        #expect(try await database.read { conn in try conn.count("note") } == 0)
        await database.close()
    }

    @Test func aWriteLockHeldElsewhereBeyondTheBusyTimeoutIsTransactionInProgress() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("busy.db")
        let database = try await DatabaseActor.open(
            url: url, migrations: AppMigrations.plan, options: .init(busyTimeout: .milliseconds(150)))
        let other = try Connection(path: url.path)
        try other.beginTransaction(.immediate)
        let started = ContinuousClock.now
        await #expect(throws: BoutiqueError.transactionInProgress) {
            try await database.write { conn in
                try conn.execute("INSERT INTO note(id, title, body, updatedAt) VALUES ('1', 'a', '', 0)")
            }
        }
        #expect(ContinuousClock.now - started >= .milliseconds(140), "the write waited for the busy timeout")
        try other.rollback()
        try await database.write { conn in
            try conn.execute("INSERT INTO note(id, title, body, updatedAt) VALUES ('1', 'a', '', 0)")
        }
        other.close()
        await database.close()
    }

    @Test func endingTheTransactionInsideWriteIsRefused() async throws {
        let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: CounterMigrations.plan)
        let error = await #expect(throws: BoutiqueError.self) {
            try await database.write { conn in try conn.execute("COMMIT") }
        }
        guard case .invalidArgument? = error else {
            Issue.record("expected invalidArgument, got \(String(describing: error))")
            return
        }
        try await database.write { conn in try conn.execute("INSERT INTO counter(label) VALUES ('ok')") }
        await database.close()
    }

    @Test func badArgumentsAreRefusedBeforeOpening() async throws {
        await #expect(throws: BoutiqueError.self) {
            try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), options: .init(readerCount: 0))
        }
        await #expect(throws: BoutiqueError.self) {
            try await DatabaseActor.open(url: try #require(URL(string: "https://example.com/app.db")))
        }
        let error = await #expect(throws: BoutiqueError.self) {
            try await DatabaseActor.open(url: URL(fileURLWithPath: "/no/such/folder/app.db"))
        }
        #expect(error?.resultCode?.primary == .cannotOpen)
    }

    /// The seed's error-handling `switch` compiles and routes each case.
    @Test func theSeedsSwitchRoutesErrors() async throws {
        let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: AppMigrations.plan)
        var printed: [String] = []
        for failing in ["INSERT INTO missing VALUES (1)", "SELECT 1"] {
            do {
                try await database.write { conn in
                    try conn.execute(failing)
                    if failing == "SELECT 1" { throw BoutiqueError.transactionInProgress }
                }
            } catch let error as BoutiqueError {
                switch error {
                case .sql(let code, let message):
                    printed.append("SQLite/Turso Engine Error (\(code)): \(message)")
                case .migrationFailed(let id, let message):
                    printed.append("Migration '\(id)' failed: \(message)")
                case .transactionInProgress:
                    printed.append("Write conflict occurred.")
                default:
                    printed.append("BoutiqueDB Error: \(error)")
                }
            }
        }
        #expect(printed.count == 2)
        #expect(printed.first?.hasPrefix("SQLite/Turso Engine Error (") == true)
        #expect(printed.first?.hasSuffix("no such table: missing") == true)
        #expect(printed.last == "Write conflict occurred.")
        await database.close()
    }
}
