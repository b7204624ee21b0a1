import BoutiqueDB
import BoutiqueQueryShapes
import Testing

/// `forEach` and cursors hand rows over one at a time, and stop when the body throws, the caller stops
/// asking, or the task is cancelled.
@Suite @MainActor struct StreamingTests {
    struct Enough: Error, Equatable {}

    @Test func aMillionRowsStreamInOrder() async throws {
        let db = try await openRemindersDatabase()
        try await db.write { conn in
            try conn.execute("DELETE FROM reminderTag; DELETE FROM reminder")
            try conn.execute("""
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000000)
                INSERT INTO reminder (id, listID, title) SELECT i, 1 + i % 3, 'r' || i FROM n
                """)
        }
        let (count, sum, inOrder) = try await db.read { conn in
            var count = 0, sum = 0, previous = 0, inOrder = true
            try SelectShapes.allIDs().forEach(conn) { id in
                count += 1
                sum += id
                if id <= previous { inOrder = false }
                previous = id
            }
            return (count, sum, inOrder)
        }
        #expect(count == 1_000_000)
        #expect(sum == 1_000_000 * 1_000_001 / 2)
        #expect(inOrder)
    }

    @Test func wholeRowsStreamAndTheBodyMayQueryMeanwhile() async throws {
        let db = try await openRemindersDatabase()
        let titles = try await db.read { conn in
            var titles: [String] = []
            try Reminder.order { $0.id }.forEach(conn) { reminder in
                // The same statement, run again while the first one is part-way through.
                let again = try Reminder.order { $0.id }.fetchAll(conn)
                titles.append("\(reminder.title)/\(again.count)")
            }
            return titles
        }
        #expect(titles == ["Groceries/4", "Haircut/4", "Email boss/4", "/4"])
    }

    @Test func throwingFromTheBodyStopsAndRethrowsItsError() async throws {
        let db = try await openRemindersDatabase()
        var seen = 0
        await #expect(throws: Enough.self) {
            seen = try await db.read { conn in
                var seen = 0
                do {
                    try SelectShapes.allIDs().forEach(conn) { _ in
                        seen += 1
                        if seen == 2 { throw Enough() }
                    }
                } catch {
                    #expect(seen == 2)
                    throw error
                }
                return seen
            }
        }
        #expect(seen == 0)
    }

    @Test func cancellingTheTaskStopsAtTheNextRow() async throws {
        let db = try await openRemindersDatabase()
        try await db.write { conn in
            try conn.execute("""
                WITH RECURSIVE n(i) AS (SELECT 10 UNION ALL SELECT i + 1 FROM n WHERE i < 100000)
                INSERT INTO member (id, name) SELECT i, 'm' || i FROM n
                """)
        }
        let task = Task { @MainActor in
            try await db.read { conn -> (Int, BoutiqueError?) in
                var seen = 0
                do {
                    try Member.all.forEach(conn) { _ in
                        seen += 1
                        if seen == 1_000 { withUnsafeCurrentTask { $0?.cancel() } }
                    }
                } catch let error as BoutiqueError {
                    return (seen, error)
                }
                return (seen, nil)
            }
        }
        let (seen, error) = try await task.value
        #expect(error == .cancelled)
        #expect(seen == 1_000)
    }

    @Test func aCursorReadsRowByRowAndEndsWithNil() async throws {
        let db = try await openRemindersDatabase()
        let (titles, afterEnd, afterClose) = try await db.read { conn in
            let cursor = try Reminder.where { $0.listID == 1 }.order { $0.id }.fetchCursor(conn)
            var titles: [String] = []
            while let reminder = try cursor.next() { titles.append(reminder.title) }
            let afterEnd = try cursor.next()
            // A cursor closed part-way reads no more.
            let partial = try SelectShapes.allIDs().fetchCursor(conn.connection)
            _ = try partial.next()
            partial.close()
            return (titles, afterEnd, try partial.next())
        }
        #expect(titles == ["Groceries", "Haircut"])
        #expect(afterEnd == nil)
        #expect(afterClose == nil)
    }

    @Test func aCursorStopsWhenItsTaskIsCancelled() async throws {
        let db = try await openRemindersDatabase()
        let task = Task { @MainActor in
            try await db.read { conn -> (Int, BoutiqueError?) in
                let cursor = try Reminder.all.fetchCursor(conn)
                var seen = 0
                do {
                    while try cursor.next() != nil {
                        seen += 1
                        if seen == 2 { withUnsafeCurrentTask { $0?.cancel() } }
                    }
                } catch let error as BoutiqueError {
                    return (seen, error)
                }
                return (seen, nil)
            }
        }
        let (seen, error) = try await task.value
        #expect(error == .cancelled)
        #expect(seen == 2)
    }
}
