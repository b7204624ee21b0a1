import Foundation
import Testing

@testable import BoutiqueSQLite

@Suite("Connection: open and close")
struct ConnectionLifecycleTests {
    @Test func inMemoryDatabaseOpensAndStartsEmpty() throws {
        let connection = try Connection.inMemory()
        #expect(connection.path == ":memory:")
        #expect(!connection.isClosed)
        #expect(connection.isAutocommit)
        #expect(try connection.fetchInt("SELECT count(*) FROM sqlite_schema") == 0)
        try connection.execute("CREATE TABLE t(x)")
        #expect(try connection.fetchInt("SELECT count(*) FROM sqlite_schema") == 1)
    }

    @Test func twoInMemoryConnectionsAreSeparateDatabases() throws {
        let first = try Connection.inMemory()
        let second = try Connection.inMemory()
        try first.execute("CREATE TABLE t(x)")
        #expect(try second.fetchInt("SELECT count(*) FROM sqlite_schema") == 0)
    }

    @Test func defaultFlagsCreateTheFile() throws {
        try withScratchDatabasePath { path in
            #expect(!FileManager.default.fileExists(atPath: path))
            let connection = try Connection(path: path)
            try connection.execute("CREATE TABLE t(x); INSERT INTO t VALUES (7)")
            connection.close()
            #expect(FileManager.default.fileExists(atPath: path))

            let reopened = try Connection(path: path, flags: [.readWrite])
            #expect(try reopened.fetchInt("SELECT x FROM t") == 7)
        }
    }

    @Test func withoutCreateAMissingFileFailsAndIsNotCreated() throws {
        try withScratchDatabasePath { path in
            let error = #expect(throws: SQLiteError.self) { try Connection(path: path, flags: [.readWrite]) }
            #expect(error?.code == .cannotOpen)
            #expect(error?.message.contains(path) == true)
            #expect(!FileManager.default.fileExists(atPath: path))
        }
    }

    @Test func readOnlyConnectionReadsButWritesFailWithReadOnly() throws {
        try withScratchDatabasePath { path in
            let writer = try Connection(path: path)
            try writer.execute("CREATE TABLE t(x); INSERT INTO t VALUES (1)")
            writer.close()

            let reader = try Connection(path: path, flags: [.readOnly])
            #expect(try reader.fetchInt("SELECT x FROM t") == 1)
            let insert = #expect(throws: SQLiteError.self) { try reader.execute("INSERT INTO t VALUES (2)") }
            #expect(insert?.code == .readOnly)
            let create = #expect(throws: SQLiteError.self) { try reader.execute("CREATE TABLE u(y)") }
            #expect(create?.code == .readOnly)
            let pragma = #expect(throws: SQLiteError.self) { try reader.setUserVersion(3) }
            #expect(pragma?.code == .readOnly)
            #expect(try reader.fetchInt("SELECT count(*) FROM t") == 1)
        }
    }

    @Test func readOnlyOpenOfAMissingFileFails() throws {
        try withScratchDatabasePath { path in
            let error = #expect(throws: SQLiteError.self) { try Connection(path: path, flags: [.readOnly]) }
            #expect(error?.code == .cannotOpen)
            #expect(!FileManager.default.fileExists(atPath: path))
        }
    }

    @Test func readOnlyURIModeRejectsWrites() throws {
        try withScratchDatabasePath { path in
            try Connection(path: path).execute("CREATE TABLE t(x)")
            let reader = try Connection(path: "file:\(path)?mode=ro", flags: [.readWrite, .uri])
            let error = #expect(throws: SQLiteError.self) { try reader.execute("INSERT INTO t VALUES (1)") }
            #expect(error?.code == .readOnly)
        }
    }

    @Test func fileInAMissingDirectoryCannotBeOpened() throws {
        try withScratchDirectory { directory in
            let path = directory.appendingPathComponent("missing/test.db").path
            let error = #expect(throws: SQLiteError.self) { try Connection(path: path) }
            #expect(error?.code == .cannotOpen)
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("missing").path))
        }
    }

    @Test func sharedCacheMemoryURIIsSharedBetweenConnections() throws {
        let uri = "file:boutique-\(UUID().uuidString)?mode=memory&cache=shared"
        let flags: OpenFlags = [.readWrite, .create, .uri]
        let first = try Connection(path: uri, flags: flags)
        let second = try Connection(path: uri, flags: flags)
        try first.execute("CREATE TABLE t(x); INSERT INTO t VALUES (42)")
        #expect(try second.fetchInt("SELECT x FROM t") == 42)
        try second.execute("INSERT INTO t VALUES (43)")
        #expect(try first.fetchInt("SELECT sum(x) FROM t") == 85)

        // The database lives as long as a connection to it: once both close, a new one is empty.
        first.close()
        second.close()
        let third = try Connection(path: uri, flags: flags)
        #expect(try third.fetchInt("SELECT count(*) FROM sqlite_schema") == 0)
    }

    @Test func memoryURIWithoutSharedCacheIsPrivate() throws {
        let uri = "file:boutique-\(UUID().uuidString)?mode=memory"
        let first = try Connection(path: uri, flags: [.readWrite, .create, .uri])
        let second = try Connection(path: uri, flags: [.readWrite, .create, .uri])
        try first.execute("CREATE TABLE t(x)")
        #expect(try second.fetchInt("SELECT count(*) FROM sqlite_schema") == 0)
    }

    @Test func closeFinalizesEveryStatement() throws {
        let connection = try Connection.inMemoryWithTable()
        let prepared = try connection.prepare("SELECT * FROM t")
        let cached = try connection.cachedStatement("SELECT count(*) FROM t")
        let stepping = try connection.prepare("SELECT 1 UNION ALL SELECT 2")
        #expect(try stepping.step())
        #expect(prepared.handle != nil && cached.handle != nil)

        connection.close()
        #expect(connection.isClosed)
        #expect(connection.handle == nil)
        #expect(prepared.handle == nil)
        #expect(cached.handle == nil)
        #expect(stepping.handle == nil)
        #expect(connection.cachedStatementCount == 0)
    }

    @Test func closingTwiceIsHarmless() throws {
        let connection = try Connection.inMemory()
        connection.close()
        connection.close()
        #expect(connection.isClosed)
    }

    @Test func everyCallOnAClosedConnectionThrows() throws {
        let connection = try Connection.inMemoryWithTable()
        connection.close()

        func expectClosed(_ what: Comment, _ body: () throws -> Void) {
            do {
                try body()
                Issue.record("\(what) did not throw on a closed connection")
            } catch let error as SQLiteError {
                #expect(error.code == .misuse, "\(what)")
                #expect(error.message.contains("closed"), "\(what)")
            } catch {
                Issue.record("\(what) threw \(error)")
            }
        }
        expectClosed("prepare") { _ = try connection.prepare("SELECT 1") }
        expectClosed("cachedStatement") { _ = try connection.cachedStatement("SELECT 1") }
        expectClosed("execute") { try connection.execute("SELECT 1") }
        expectClosed("execute with arguments") { try connection.execute("SELECT ?", [1]) }
        expectClosed("fetchRows") { _ = try connection.fetchRows("SELECT 1") }
        expectClosed("fetchValue") { _ = try connection.fetchValue("SELECT 1") }
        expectClosed("beginTransaction") { try connection.beginTransaction() }
        expectClosed("commit") { try connection.commit() }
        expectClosed("rollback") { try connection.rollback() }
        expectClosed("transaction") { try connection.transaction { Issue.record("body ran"); return } }
        expectClosed("savepoint") { try connection.savepoint { Issue.record("body ran"); return } }
        expectClosed("journalMode") { _ = try connection.journalMode() }
        expectClosed("setJournalMode") { try connection.setJournalMode(.wal) }
        expectClosed("synchronous") { _ = try connection.synchronous() }
        expectClosed("setSynchronous") { try connection.setSynchronous(.normal) }
        expectClosed("foreignKeysEnabled") { _ = try connection.foreignKeysEnabled() }
        expectClosed("setForeignKeysEnabled") { try connection.setForeignKeysEnabled(true) }
        expectClosed("dataVersion") { _ = try connection.dataVersion() }
        expectClosed("userVersion") { _ = try connection.userVersion() }
        expectClosed("setUserVersion") { try connection.setUserVersion(1) }
        expectClosed("integrityCheck") { _ = try connection.integrityCheck() }
        expectClosed("setBusyTimeout") { try connection.setBusyTimeout(milliseconds: 10) }
        expectClosed("setBusyHandler") { try connection.setBusyHandler { _ in false } }
        expectClosed("setAuthorizer") { try connection.setAuthorizer { _ in .allow } }
        expectClosed("setUpdateHook") { try connection.setUpdateHook { _ in } }
        expectClosed("setPreupdateHook") { try connection.setPreupdateHook { _ in } }
        expectClosed("setCommitHook") { try connection.setCommitHook { false } }
        expectClosed("setRollbackHook") { try connection.setRollbackHook {} }
        expectClosed("requireHandle") { _ = try connection.requireHandle() }

        // The non-throwing accessors answer neutral values.
        #expect(connection.lastInsertRowID == 0)
        #expect(connection.changes == 0)
        #expect(connection.totalChanges == 0)
        #expect(connection.isAutocommit)
        connection.interrupt()
        connection.interrupter.interrupt()
        connection.clearStatementCache()
    }

    @Test func everyCallOnAFinalizedStatementThrows() throws {
        let connection = try Connection.inMemoryWithTable()
        let statement = try connection.prepare("SELECT value FROM t WHERE id = :id")
        statement.finalize()
        statement.finalize()  // twice is harmless
        #expect(statement.handle == nil)

        func expectFinalized(_ what: Comment, _ body: () throws -> Void) {
            do {
                try body()
                Issue.record("\(what) did not throw on a finalized statement")
            } catch let error as SQLiteError {
                #expect(error.code == .misuse, "\(what)")
                #expect(error.sql == statement.sql, "\(what)")
            } catch {
                Issue.record("\(what) threw \(error)")
            }
        }
        expectFinalized("step") { try statement.step() }
        expectFinalized("run") { try statement.run() }
        expectFinalized("reset") { try statement.reset() }
        expectFinalized("clearBindings") { try statement.clearBindings() }
        expectFinalized("parameterIndex") { _ = try statement.parameterIndex(named: "id") }
        expectFinalized("bindNull") { try statement.bindNull(at: 1) }
        expectFinalized("bind Int64") { try statement.bind(Int64(1), at: 1) }
        expectFinalized("bind Int") { try statement.bind(1, at: 1) }
        expectFinalized("bind Double") { try statement.bind(1.5, at: 1) }
        expectFinalized("bind String") { try statement.bind("x", at: 1) }
        expectFinalized("bind empty String") { try statement.bind("", at: 1) }
        expectFinalized("bind blob") { try statement.bind([1, 2] as [UInt8], at: 1) }
        expectFinalized("bind empty blob") { try statement.bind([] as [UInt8], at: 1) }
        expectFinalized("bind value") { try statement.bind(DatabaseValue.integer(1), at: 1) }
        expectFinalized("bind array") { try statement.bind([.integer(1)]) }
        expectFinalized("bind named") { try statement.bind(.integer(1), named: "id") }
        expectFinalized("bind dictionary") { try statement.bind(["id": .integer(1)]) }
        let bytes: [UInt8] = [1, 2, 3]
        expectFinalized("bindNoCopy") {
            try bytes.withUnsafeBytes { buffer in try statement.bindNoCopy(buffer, at: 1) }
        }
        expectFinalized("bindTextNoCopy") {
            try bytes.withUnsafeBufferPointer { buffer in
                try statement.bindTextNoCopy(buffer, at: 1)
            }
        }

        // Reads never trap: they answer NULL, empty and zero.
        #expect(statement.columnCount == 0)
        #expect(statement.columnName(at: 0) == "")
        #expect(statement.columnNames == [])
        #expect(statement.columnType(at: 0) == .null)
        #expect(statement.isNull(at: 0))
        #expect(statement.int64(at: 0) == 0)
        #expect(statement.int(at: 0) == 0)
        #expect(statement.double(at: 0) == 0)
        #expect(try statement.string(at: 0) == "")
        #expect(statement.textBytes(at: 0) == [])
        #expect(statement.blob(at: 0) == [])
        #expect(try statement.value(at: 0) == .null)
        #expect(try statement.row() == [])
        #expect(statement.parameterCount == 0)
        #expect(statement.isReadOnly)
        #expect(statement.expandedSQL == nil)
        #expect(statement.sql == "SELECT value FROM t WHERE id = :id")

        // The connection is unaffected.
        #expect(try connection.fetchInt("SELECT count(*) FROM t") == 0)
    }

    @Test func statementOutlivingItsConnectionIsSafe() throws {
        func orphan() throws -> (Statement, () -> Bool) {
            let connection = try Connection.inMemoryWithTable()
            let statement = try connection.prepare("SELECT 1 UNION ALL SELECT 2")
            #expect(try statement.step())
            weak let weakConnection = connection
            return (statement, { weakConnection == nil })
        }
        let (statement, connectionIsGone) = try orphan()
        #expect(connectionIsGone())
        #expect(statement.handle == nil)
        let error = #expect(throws: SQLiteError.self) { try statement.step() }
        #expect(error?.code == .misuse)
        #expect(throws: SQLiteError.self) { try statement.bind(1, at: 1) }
        #expect(statement.columnName(at: 0) == "")
        statement.finalize()
    }

    @Test func statementKeptAfterExplicitCloseIsSafe() throws {
        var connection: Connection? = try Connection.inMemoryWithTable()
        let statement = try #require(connection).prepare("INSERT INTO t(value) VALUES (?)")
        try statement.bind("a", at: 1)
        try statement.run()
        connection?.close()
        #expect(throws: SQLiteError.self) { try statement.run() }
        connection = nil
        #expect(throws: SQLiteError.self) { try statement.run() }
        #expect(statement.handle == nil)
    }

    @Test func statementsDroppedBeforeCloseAreFinalizedAndForgotten() throws {
        let connection = try Connection.inMemoryWithTable()
        for index in 0..<100 {
            let statement = try connection.prepare("SELECT \(index)")
            #expect(try statement.step())
        }
        // No statement is left unfinalized: SQLite lists none for the connection.
        let handle = try connection.requireHandle()
        #expect(unfinalizedStatementCount(handle) == 0)
        connection.close()
    }

    @Test func interrupterOutlivingItsConnectionIsHarmless() throws {
        var connection: Connection? = try Connection.inMemory()
        let interrupter = try #require(connection).interrupter
        connection = nil
        interrupter.interrupt()
    }

    @Test func pathWithANulCharacterIsRefused() throws {
        try withScratchDirectory { directory in
            let real = directory.appendingPathComponent("real.db").path
            let error = #expect(throws: SQLiteError.self) { try Connection(path: real + "\u{0}.backup") }
            #expect(error?.code == .cannotOpen)
            #expect(!FileManager.default.fileExists(atPath: real))
        }
    }

    @Test func invalidFlagCombinationFails() throws {
        let error = #expect(throws: SQLiteError.self) { try Connection(path: ":memory:", flags: [.create]) }
        #expect(error?.code == .misuse)
    }
}
