@testable import BoutiqueDB
import Foundation
import Testing

/// Change tokens and the typed change feed.
@Suite struct ChangeFeedTests {
    @MainActor
    private func open(_ options: DatabaseOptions = .default) async throws -> BoutiqueDB {
        try await BoutiqueDB.open(url: BoutiqueDB.inMemoryURL(), migrations: LiveQueryMigrations.plan, options: options)
    }

    /// The first `count` transactions of `feed`, or a timeout: a minute, and ten under a sanitizer,
    /// whose slowed run once kept these main-actor tests' reader from the main actor for 100 s.
    private func take(_ count: Int, from feed: ChangeFeed) async throws -> [ChangeTransaction] {
        try await withTimeout(30) {
            var taken: [ChangeTransaction] = []
            for try await transaction in feed {
                taken.append(transaction)
                if taken.count == count { break }
            }
            return taken
        }
    }

    @Test func tokensAreComparableCodableIntegers() throws {
        let token = ChangeToken(changeID: 42)
        #expect(token > .beginning && ChangeToken(changeID: 41) < token)
        let data = try JSONEncoder().encode(token)
        #expect(String(decoding: data, as: UTF8.self) == "42")
        #expect(try JSONDecoder().decode(ChangeToken.self, from: data) == token)
        #expect(Set([token, ChangeToken(changeID: 42)]).count == 1)
    }

    /// Cancelled while its read waits for a reader (the only one is busy), the feed ends as it does when
    /// cancelled between reads: no error.
    @Test func aFeedCancelledDuringItsReadEnds() async throws {
        let database = try await DatabaseActor.open(
            url: BoutiqueDB.inMemoryURL(), migrations: LiveQueryMigrations.plan, options: .init(readerCount: 1))
        let holding = Latch()
        let release = Latch()
        let busy = Task { try await database.read { _ in holding.open(); return release.waitBlocking(seconds: 10) } }
        #expect(await holding.wait(seconds: 5))
        let feed = database.changes(since: .beginning)
        let follower = Task {
            var seen = 0
            for try await _ in feed { seen += 1 }
            return seen
        }
        let deadline = ContinuousClock.now + .seconds(hangDeadline(seconds: 5))
        while database.readers.waitingCount == 0, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(2)) }
        #expect(database.readers.waitingCount == 1, "the feed's read waits for the reader")
        follower.cancel()
        let seen = try await follower.value
        #expect(seen == 0)
        release.open()
        #expect(try await busy.value)
        await database.close()
    }

    @MainActor
    @Test func theFeedReadsCommittedTransactionsAsTypedChanges() async throws {
        let db = try await open()
        let start = try await db.currentToken
        #expect(start > .beginning, "the migrations were logged")
        let id = UUID()
        try await db.write { conn in
            try Note.insert { Note(id: id, title: "Groceries", body: "milk", updatedAt: Date(timeIntervalSince1970: 10)) }
                .execute(conn.connection)
        }
        try await db.write { conn in try conn.execute("UPDATE note SET title = 'Errands'") }
        try await db.write { conn in try conn.execute("DELETE FROM note") }
        let transactions = try await take(3, from: db.changes(since: start))
        #expect(transactions.map(\.token) == transactions.map(\.token).sorted())
        #expect(try await db.currentToken == transactions.last?.token)
        #expect(transactions.map { $0.changes.map(\.kind) } == [[.insert], [.update], [.delete]])
        let inserted = transactions[0].changes[0]
        #expect(inserted.table == "note" && inserted.rowID != nil && inserted.columns == ["id", "title", "body", "updatedAt"])
        let note = try inserted.after(as: Note.self)
        #expect(note?.id == id && note?.title == "Groceries" && note?.updatedAt == Date(timeIntervalSince1970: 10))
        let updated = transactions[1].changes[0]
        #expect(updated.assignedColumnNames == ["title"])
        #expect(try updated.before(as: Note.self)?.title == "Groceries")
        #expect(try updated.after(as: Note.self)?.title == "Errands")
        #expect(updated.value("title", in: updated.after) == "Errands")
        #expect(try transactions[2].changes[0].after(as: Note.self) == nil)
        #expect(try transactions[2].changes[0].before(as: Note.self)?.id == id)
        #expect(transactions.allSatisfy { $0.transactionID == $0.changes[0].changeID })
        await db.close()
    }

    @MainActor
    @Test func theFeedWaitsForTheNextCommit() async throws {
        let db = try await open()
        let now = try await db.currentToken
        let reader = Task { try await take(2, from: db.changes(since: now)) }
        try await Task.sleep(for: .milliseconds(20))
        try await db.write { conn in try conn.execute("INSERT INTO counter(label) VALUES ('a')") }
        try await db.write { conn in try conn.execute("INSERT INTO counter(label) VALUES ('b'), ('c')") }
        let transactions = try await reader.value
        #expect(transactions.map { $0.changes.count } == [1, 2])
        #expect(transactions.map { $0.changes.compactMap { $0.value("label", in: $0.after) } } == [["a"], ["b", "c"]])
        await db.close()
    }

    @MainActor
    @Test func pruningRemovesOldTransactionsAndReadersBehindItAreTold() async throws {
        let db = try await open()
        let start = try await db.currentToken
        for label in ["a", "b", "c"] {
            try await db.write { conn in try conn.execute("INSERT INTO counter(label) VALUES (?)", [.text(label)]) }
        }
        let all = try await take(3, from: db.changes(since: start))
        try await db.pruneChanges(upTo: all[1].token)
        let left = try await take(1, from: db.changes(since: all[1].token))
        #expect(left.map(\.token) == [all[2].token])
        // A reader behind the pruned part is told where the log now starts, and can go on from there.
        await #expect(throws: BoutiqueError.changesPruned(requested: start.changeID, oldestAvailable: all[1].token.changeID)) {
            try await take(1, from: db.changes(since: start))
        }
        let resumed = try await take(1, from: db.changes(since: ChangeToken(changeID: all[1].token.changeID)))
        #expect(resumed.map(\.token) == [all[2].token])

        // Everything pruned: the last COMMIT row stays, so ids keep growing.
        try await db.pruneChanges(upTo: all[2].token)
        #expect(try await db.currentToken == all[2].token)
        try await db.write { conn in try conn.execute("INSERT INTO counter(label) VALUES ('d')") }
        let next = try await take(1, from: db.changes(since: all[2].token))
        #expect(next.first?.token ?? .beginning > all[2].token)
        #expect(next.first?.changes.count == 1)
        let rows = try await db.read { conn in try conn.fetchValue("SELECT count(*) FROM turso_cdc") }
        #expect(rows == .integer(3), "the marker, the new change and its COMMIT row")
        await db.close()
    }

    @MainActor
    @Test func retentionKeepsTheLatestTransactions() async throws {
        let db = try await open(.init(changeCapture: .init(retention: .transactions(3), pruneInterval: 1)))
        var seventh = ChangeToken.beginning
        for index in 0..<10 {
            try await db.write { conn in try conn.execute("INSERT INTO counter(label) VALUES (?)", [.text("\(index)")]) }
            if index == 6 { seventh = try await db.currentToken }
        }
        let commits = try await db.read { conn in try conn.fetchValue("SELECT count(*) FROM turso_cdc WHERE change_type = 2") }
        #expect(commits == .integer(3))
        await #expect {
            try await take(1, from: db.changes(since: .beginning))
        } throws: { error in
            guard case .changesPruned(let requested, let oldest)? = error as? BoutiqueError else { return false }
            return requested == 0 && oldest == seventh.changeID
        }
        let kept = try await take(3, from: db.changes(since: seventh))
        #expect(kept.map { $0.changes.first?.value("label", in: $0.changes.first?.after) } == ["7", "8", "9"])
        await db.close()
    }

    @MainActor
    @Test func withTheLogOffThereIsNoFeed() async throws {
        let db = try await open(.init(changeCapture: .init(mode: .off)))
        try await db.write { conn in try conn.execute("INSERT INTO counter(label) VALUES ('a')") }
        #expect(try await db.currentToken == .beginning)
        await db.close()
    }
}
