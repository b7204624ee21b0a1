import Testing

@testable import BoutiqueSQLite

@Suite("Connection: hooks")
struct HookTests {
    // MARK: Authorizer

    @Test func authorizerSeesTheTablesAndColumnsASelectReads() throws {
        let connection = try Connection.inMemory()
        try connection.execute(
            "CREATE TABLE author(id INTEGER PRIMARY KEY, name); CREATE TABLE book(id, author_id, title); CREATE TABLE other(z)")
        let events = CallLog<AuthorizerEvent>()
        try connection.setAuthorizer { event in
            events.append(event)
            return .allow
        }
        _ = try connection.prepare("SELECT book.title, author.name FROM book JOIN author ON author.id = book.author_id")

        let reads = events.items.filter { $0.actionCode == AuthorizerEvent.read }
        #expect(Set(reads.compactMap(\.parameter1)) == ["book", "author"])
        let readColumns = Set(reads.map { "\($0.parameter1 ?? "").\($0.parameter2 ?? "")" })
        #expect(readColumns.isSuperset(of: ["book.title", "book.author_id", "author.name"]))
        #expect(reads.allSatisfy { $0.databaseName == "main" && $0.triggerOrView == nil })
        #expect(events.items.contains { $0.actionCode == AuthorizerEvent.select })
    }

    @Test func authorizerReportsWritesAndDDL() throws {
        let connection = try Connection.inMemoryWithTable()
        let events = CallLog<AuthorizerEvent>()
        try connection.setAuthorizer { event in
            events.append(event)
            return .allow
        }
        try connection.execute(
            "INSERT INTO t(value) VALUES (1); UPDATE t SET value = 2; DELETE FROM t; CREATE TABLE n(x); DROP TABLE n")
        let actions = events.items.map { ($0.actionCode, $0.parameter1 ?? "") }
        #expect(actions.contains { $0 == (AuthorizerEvent.insert, "t") })
        #expect(actions.contains { $0 == (AuthorizerEvent.update, "t") })
        #expect(actions.contains { $0 == (AuthorizerEvent.delete, "t") })
        #expect(actions.contains { $0 == (AuthorizerEvent.createTable, "n") })
        #expect(actions.contains { $0 == (AuthorizerEvent.dropTable, "n") })
        #expect(events.items.contains { $0.actionCode == AuthorizerEvent.update && $0.parameter2 == "value" })
    }

    @Test func authorizerDenyFailsTheStatementWithAuth() throws {
        let connection = try Connection.inMemory()
        try connection.execute("CREATE TABLE public(x); CREATE TABLE secret(y); INSERT INTO secret VALUES ('s')")
        try connection.setAuthorizer { event in
            event.actionCode == AuthorizerEvent.read && event.parameter1 == "secret" ? .deny : .allow
        }
        let error = #expect(throws: SQLiteError.self) { try connection.prepare("SELECT y FROM secret") }
        #expect(error?.code == .authorization)
        #expect(error?.message == "access to secret.y is prohibited")
        #expect(error?.sql == "SELECT y FROM secret")
        // Other statements still run.
        #expect(try connection.fetchInt("SELECT count(*) FROM public") == 0)

        try connection.setAuthorizer(nil)
        #expect(try connection.fetchValue("SELECT y FROM secret") == .text("s"))
    }

    @Test func authorizerIgnoreReadsTheColumnAsNull() throws {
        let connection = try Connection.inMemory()
        try connection.execute("CREATE TABLE person(name, password); INSERT INTO person VALUES ('ann', 'hunter2')")
        try connection.setAuthorizer { event in
            event.actionCode == AuthorizerEvent.read && event.parameter2 == "password" ? .ignore : .allow
        }
        #expect(try connection.fetchRows("SELECT name, password FROM person").rows == [[.text("ann"), .null]])
    }

    @Test func authorizerSeesTheViewBehindARead() throws {
        let connection = try Connection.inMemory()
        try connection.execute("CREATE TABLE base(x); CREATE VIEW visible AS SELECT x FROM base")
        let events = CallLog<AuthorizerEvent>()
        try connection.setAuthorizer { event in
            events.append(event)
            return .allow
        }
        _ = try connection.prepare("SELECT x FROM visible")
        let baseRead = events.items.first { $0.actionCode == AuthorizerEvent.read && $0.parameter1 == "base" }
        #expect(baseRead?.triggerOrView == "visible")
    }

    // MARK: Update hook

    @Test func updateHookReportsInsertsUpdatesAndDeletesWithRowIDs() throws {
        let connection = try Connection.inMemoryWithTable()
        let events = CallLog<UpdateEvent>()
        try connection.setUpdateHook { events.append($0) }

        try connection.execute("INSERT INTO t(id, value) VALUES (5, 'a'), (9, 'b')")
        try connection.execute("UPDATE t SET value = 'c' WHERE id = 9")
        try connection.execute("DELETE FROM t WHERE id = 5")

        #expect(events.items == [
            UpdateEvent(kind: .insert, databaseName: "main", tableName: "t", rowID: 5),
            UpdateEvent(kind: .insert, databaseName: "main", tableName: "t", rowID: 9),
            UpdateEvent(kind: .update, databaseName: "main", tableName: "t", rowID: 9),
            UpdateEvent(kind: .delete, databaseName: "main", tableName: "t", rowID: 5),
        ])
    }

    @Test func updateHookSeesChangesThatRollBackAndChangesInTempTables() throws {
        let connection = try Connection.inMemoryWithTable()
        try connection.execute("CREATE TEMP TABLE scratch(x)")
        let events = CallLog<UpdateEvent>()
        try connection.setUpdateHook { events.append($0) }
        try connection.beginTransaction()
        try connection.execute("INSERT INTO t(value) VALUES (1); INSERT INTO scratch VALUES (2)")
        try connection.rollback()
        #expect(events.items.map(\.tableName) == ["t", "scratch"])
        #expect(events.items.map(\.databaseName) == ["main", "temp"])
    }

    @Test func removedUpdateHookIsNotCalled() throws {
        let connection = try Connection.inMemoryWithTable()
        let events = CallLog<UpdateEvent>()
        try connection.setUpdateHook { events.append($0) }
        try connection.execute("INSERT INTO t(value) VALUES (1)")
        try connection.setUpdateHook(nil)
        try connection.execute("INSERT INTO t(value) VALUES (2)")
        #expect(events.items.count == 1)
    }

    @Test func replacingAHookStopsTheOldOne() throws {
        let connection = try Connection.inMemoryWithTable()
        let old = CallLog<Int64>()
        let new = CallLog<Int64>()
        try connection.setUpdateHook { old.append($0.rowID) }
        try connection.setUpdateHook { new.append($0.rowID) }
        try connection.execute("INSERT INTO t(id, value) VALUES (3, 'x')")
        #expect(old.items == [])
        #expect(new.items == [3])
    }

    // MARK: Preupdate hook

    @Test func preupdateHookSeesOldAndNewValuesOfAnUpdate() throws {
        let connection = try Connection.inMemory()
        try connection.execute("CREATE TABLE p(id INTEGER PRIMARY KEY, name TEXT, score REAL, data BLOB)")
        try connection.execute("INSERT INTO p VALUES (1, 'before', 1.5, x'01')")
        struct Seen: Equatable {
            var kind: RowChangeKind, table: String, database: String, oldRowID: Int64, newRowID: Int64
            var count: Int32, depth: Int32, old: [DatabaseValue], new: [DatabaseValue]
        }
        let seen = CallLog<Seen>()
        try connection.setPreupdateHook { change in
            seen.append(Seen(
                kind: change.kind, table: change.tableName, database: change.databaseName,
                oldRowID: change.oldRowID, newRowID: change.newRowID, count: change.columnCount,
                depth: change.triggerDepth, old: (try? change.oldRow()) ?? [], new: (try? change.newRow()) ?? []))
        }
        try connection.execute("UPDATE p SET name = 'after', data = NULL WHERE id = 1")
        #expect(seen.items == [
            Seen(
                kind: .update, table: "p", database: "main", oldRowID: 1, newRowID: 1, count: 4, depth: 0,
                old: [.integer(1), .text("before"), .real(1.5), .blob([1])],
                new: [.integer(1), .text("after"), .real(1.5), .null])
        ])
    }

    @Test func preupdateHookSeesTheRowIDChangeOfAnUpdate() throws {
        let connection = try Connection.inMemoryWithTable()
        try connection.execute("INSERT INTO t(id, value) VALUES (1, 'x')")
        let rowIDs = CallLog<(Int64, Int64)>()
        try connection.setPreupdateHook { rowIDs.append(($0.oldRowID, $0.newRowID)) }
        try connection.execute("UPDATE t SET id = 20 WHERE id = 1")
        #expect(rowIDs.items.count == 1)
        #expect(rowIDs.items.first.map { $0 == (1, 20) } == true)
    }

    @Test func preupdateHookSeesTheOldValuesOfADeleteAndTheNewOfAnInsert() throws {
        let connection = try Connection.inMemoryWithTable()
        let log = CallLog<(RowChangeKind, [DatabaseValue]?, [DatabaseValue]?)>()
        try connection.setPreupdateHook { change in
            log.append((change.kind, try? change.oldRow(), try? change.newRow()))
        }
        try connection.execute("INSERT INTO t(id, value) VALUES (7, 'seven')")
        try connection.execute("DELETE FROM t WHERE id = 7")
        #expect(log.items.count == 2)
        #expect(log.items.map(\.0) == [.insert, .delete])
        // An insert has no old row, a delete no new one.
        #expect(log.items[0].1 == nil)
        #expect(log.items[0].2 == [.integer(7), .text("seven")])
        #expect(log.items[1].1 == [.integer(7), .text("seven")])
        #expect(log.items[1].2 == nil)
    }

    @Test func preupdateReadsOutsideTheRowOrTheKindFailWithoutTrapping() throws {
        let connection = try Connection.inMemoryWithTable()
        let errors = CallLog<SQLiteError>()
        try connection.setPreupdateHook { change in
            let reads: [() throws -> DatabaseValue] = [
                { try change.oldValue(at: 0) }, { try change.newValue(at: 5) }, { try change.newValue(at: -1) },
            ]
            for read in reads {
                do {
                    _ = try read()
                } catch let error as SQLiteError {
                    errors.append(error)
                } catch {}
            }
        }
        try connection.execute("INSERT INTO t(value) VALUES (1)")
        #expect(errors.items.map(\.code) == [.misuse, .range, .range])
    }

    @Test func preupdateHookReportsTriggerDepth() throws {
        let connection = try Connection.inMemoryWithTable()
        try connection.execute(
            """
            CREATE TABLE audit(note);
            CREATE TRIGGER t_audit AFTER INSERT ON t BEGIN INSERT INTO audit VALUES ('added'); END;
            """)
        let depths = CallLog<(String, Int32)>()
        try connection.setPreupdateHook { depths.append(($0.tableName, $0.triggerDepth)) }
        try connection.execute("INSERT INTO t(value) VALUES (1)")
        #expect(depths.items.map(\.0) == ["t", "audit"])
        #expect(depths.items.map(\.1) == [0, 1])
    }

    @Test func preupdateChangeKeptPastItsCallFailsInsteadOfReadingFreedMemory() throws {
        final class Token {}
        weak var weakToken: Token?
        var connection: Connection? = try Connection.inMemoryWithTable()
        let kept = CallLog<PreupdateChange>()
        do {
            let token = Token()
            weakToken = token
            try #require(connection).setPreupdateHook { change in
                _ = token
                kept.append(change)
            }
        }
        try #require(connection).execute("INSERT INTO t(value) VALUES ('a'), ('b')")
        #expect(kept.items.count == 2)

        let first = try #require(kept.items.first)
        #expect(first.tableName == "t")
        #expect(first.columnCount == 0)
        #expect(throws: SQLiteError.self) { try first.newValue(at: 0) }

        connection?.close()
        connection = nil
        // The kept changes do not keep the hook's closure alive.
        #expect(weakToken == nil)
        for change in kept.items {
            #expect(change.columnCount == 0)
            #expect(change.triggerDepth == 0)
            let error = #expect(throws: SQLiteError.self) { try change.newRow() }
            #expect(error?.code == .misuse)
            #expect(throws: SQLiteError.self) { try change.oldValue(at: 0) }
        }
    }

    @Test func removedPreupdateHookIsNotCalled() throws {
        let connection = try Connection.inMemoryWithTable()
        let count = CallLog<Int>()
        try connection.setPreupdateHook { _ in count.append(1) }
        try connection.execute("INSERT INTO t(value) VALUES (1)")
        try connection.setPreupdateHook(nil)
        try connection.execute("INSERT INTO t(value) VALUES (2)")
        #expect(count.items.count == 1)
    }

    // MARK: Commit and rollback hooks

    @Test func commitHookIsCalledForEachCommit() throws {
        let connection = try Connection.inMemoryWithTable()
        let commits = CallLog<Int>()
        try connection.setCommitHook {
            commits.append(1)
            return false
        }
        try connection.execute("INSERT INTO t(value) VALUES (1)")  // autocommit
        try connection.transaction { try connection.execute("INSERT INTO t(value) VALUES (2)") }
        _ = try connection.fetchRows("SELECT * FROM t")  // a read commits nothing
        #expect(commits.items.count == 2)
        #expect(try connection.fetchInt("SELECT count(*) FROM t") == 2)
    }

    @Test func commitHookReturningTrueTurnsTheCommitIntoARollback() throws {
        let connection = try Connection.inMemoryWithTable()
        let rollbacks = CallLog<Int>()
        try connection.setRollbackHook { rollbacks.append(1) }
        try connection.setCommitHook { true }

        try connection.beginTransaction()
        try connection.execute("INSERT INTO t(value) VALUES ('vetoed')")
        let error = #expect(throws: SQLiteError.self) { try connection.commit() }
        // SQLite reports the veto as SQLITE_CONSTRAINT_COMMITHOOK.
        #expect(error?.code == .constraint)
        #expect(error?.extendedCode == .constraintCommitHook)
        #expect(connection.isAutocommit)
        #expect(rollbacks.items.count == 1)

        // In autocommit mode the statement itself fails.
        let insert = #expect(throws: SQLiteError.self) { try connection.execute("INSERT INTO t(value) VALUES ('also')") }
        #expect(insert?.extendedCode == .constraintCommitHook)

        try connection.setCommitHook(nil)
        #expect(try connection.fetchInt("SELECT count(*) FROM t") == 0)
        try connection.execute("INSERT INTO t(value) VALUES ('allowed')")
        #expect(try connection.fetchInt("SELECT count(*) FROM t") == 1)
    }

    @Test func transactionHelperRollsBackWhenTheCommitHookVetoes() throws {
        let connection = try Connection.inMemoryWithTable()
        try connection.setCommitHook { true }
        let error = #expect(throws: SQLiteError.self) {
            try connection.transaction { try connection.execute("INSERT INTO t(value) VALUES (1)") }
        }
        #expect(error?.extendedCode == .constraintCommitHook)
        #expect(connection.isAutocommit)
        try connection.setCommitHook(nil)
        #expect(try connection.fetchInt("SELECT count(*) FROM t") == 0)
    }

    @Test func rollbackHookIsCalledOnRollbackOnly() throws {
        let connection = try Connection.inMemoryWithTable()
        let rollbacks = CallLog<Int>()
        try connection.setRollbackHook { rollbacks.append(1) }

        try connection.transaction { try connection.execute("INSERT INTO t(value) VALUES (1)") }
        #expect(rollbacks.items.isEmpty)

        try? connection.transaction {
            try connection.execute("INSERT INTO t(value) VALUES (2)")
            throw RollbackRequest()
        }
        #expect(rollbacks.items.count == 1)

        // Rolling back to a savepoint inside a transaction is not a transaction rollback.
        try connection.transaction {
            try? connection.savepoint { throw RollbackRequest() }
        }
        #expect(rollbacks.items.count == 1)

        try connection.setRollbackHook(nil)
        try connection.beginTransaction()
        try connection.rollback()
        #expect(rollbacks.items.count == 1)
    }

    @Test func closeReleasesTheHookClosures() throws {
        final class Token {}
        weak var weakToken: Token?
        let connection = try Connection.inMemoryWithTable()
        do {
            let token = Token()
            weakToken = token
            try connection.setUpdateHook { _ in _ = token }
            try connection.setPreupdateHook { _ in _ = token }
            try connection.setCommitHook { _ = token; return false }
            try connection.setRollbackHook { _ = token }
            try connection.setAuthorizer { _ in _ = token; return .allow }
            try connection.setBusyHandler { _ in _ = token; return false }
        }
        try connection.execute("INSERT INTO t(value) VALUES (1)")
        #expect(weakToken != nil)
        connection.close()
        #expect(weakToken == nil)
    }

    @Test func removingEveryHookReleasesItsClosure() throws {
        final class Token {}
        weak var weakToken: Token?
        let connection = try Connection.inMemoryWithTable()
        do {
            let token = Token()
            weakToken = token
            try connection.setUpdateHook { _ in _ = token }
            try connection.setPreupdateHook { _ in _ = token }
            try connection.setCommitHook { _ = token; return false }
            try connection.setRollbackHook { _ = token }
            try connection.setAuthorizer { _ in _ = token; return .allow }
            try connection.setBusyHandler { _ in _ = token; return false }
        }
        #expect(weakToken != nil)
        try connection.setUpdateHook(nil)
        try connection.setPreupdateHook(nil)
        try connection.setCommitHook(nil)
        try connection.setRollbackHook(nil)
        try connection.setAuthorizer(nil)
        try connection.setBusyHandler(nil)
        #expect(weakToken == nil)
        try connection.execute("INSERT INTO t(value) VALUES (1)")
    }
}
