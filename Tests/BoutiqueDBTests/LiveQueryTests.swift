@testable import BoutiqueDB
import Foundation
import Observation
import Synchronization
import Testing

/// A model holding live queries, as an app's view model does.
@MainActor
final class NoteListModel {
    @LiveQuery<Note> var notes: [Note]
    @LiveQueryOne<Note> var newest: Note?

    init(_ db: BoutiqueDB) {
        _notes = LiveQuery(db, { Note.all.order { $0.updatedAt.desc() }.asSelect() })
        _newest = LiveQueryOne(db, Note.all.order { $0.updatedAt.desc() })
    }
}

/// An `@Observable` owner: the live query's own state is what observers track.
@MainActor
@Observable
final class ObservedNoteListModel {
    @ObservationIgnored @LiveQuery<Note> var notes: [Note]

    init(_ db: BoutiqueDB) {
        _notes = LiveQuery(db, Note.all.order { $0.title })
    }
}

@Suite struct LiveQueryTests {
    @MainActor
    private func open() async throws -> BoutiqueDB {
        try await BoutiqueDB.open(url: BoutiqueDB.inMemoryURL(), migrations: LiveQueryMigrations.plan)
    }

    @MainActor
    @Test func theFirstValueComesFromTheDatabaseAndLaterOnesFollowCommits() async throws {
        let db = try await open()
        try await insertNote(db, "First", at: 1)
        let model = NoteListModel(db)
        #expect(model.notes.isEmpty, "the declared value until the first fetch returns")
        try await eventually("first fetch") { model.notes.count == 1 && model.newest?.title == "First" }
        try await insertNote(db, "Second", at: 2)
        try await eventually("second note") { model.notes.count == 2 && model.newest?.title == "Second" }
        try await db.write { conn in try conn.execute("DELETE FROM note") }
        try await eventually("deletion") { model.notes.isEmpty && model.newest == nil }
        await db.close()
    }

    @MainActor
    @Test func anObservationWaitingBetweenResultsEndsWhenTheDatabaseCloses() async throws {
        let db = try await open()
        try await insertNote(db, "First", at: 1)
        /// Iterates a live query in a task: how many values it has seen, and how it ended (`nil` while it waits).
        func iterate() -> (task: Task<Void, Never>, seen: @Sendable () -> Int, outcome: @Sendable () -> (values: Int, error: BoutiqueError?)?) {
            let seen = Lock(0)
            let outcome = Lock<(values: Int, error: BoutiqueError?)?>(nil)
            let task = Task {
                var values = 0
                do {
                    for try await _ in db.observe(Note.all) {
                        values += 1
                        seen.withLock { [values] in $0 = values }
                    }
                    outcome.withLock { [values] in $0 = (values, nil) }
                } catch {
                    outcome.withLock { [values] in $0 = (values, error as? BoutiqueError) }
                }
            }
            return (task, { seen.withLock { $0 } }, { outcome.withLock { $0 } })
        }
        func ended(_ outcome: () -> (values: Int, error: BoutiqueError?)?) async throws -> (values: Int, error: BoutiqueError?)? {
            let deadline = ContinuousClock.now + .seconds(hangDeadline(seconds: 10))
            while ContinuousClock.now < deadline {
                if let ended = outcome() { return ended }
                try await Task.sleep(for: .milliseconds(20))
            }
            return outcome()
        }

        let waiting = iterate()
        // Once the first value is in, the sequence waits for a commit.
        try await eventually("the first value") { waiting.seen() == 1 }
        await db.close()
        let outcome = try await ended(waiting.outcome)
        waiting.task.cancel()
        #expect(outcome?.values == 1, "the sequence was still waiting \(hangDeadline(seconds: 10)) s after the close")
        #expect(outcome?.error == .databaseClosed)
        // One started after the close ends at once, the same way.
        let late = iterate()
        let lateOutcome = try await ended(late.outcome)
        late.task.cancel()
        #expect(lateOutcome?.values == 0)
        #expect(lateOutcome?.error == .databaseClosed)
    }

    @MainActor
    @Test func commitsToOtherTablesCauseNoFetch() async throws {
        let db = try await open()
        let model = NoteListModel(db)
        try await eventually("first fetch") { !model.$notes.isLoading }
        #expect(model.$notes.fetchCount == 1)
        #expect(model.$notes.region?.tables == ["note"])
        for index in 0..<1_000 {
            try await db.write { conn in try conn.execute("INSERT INTO counter(label) VALUES (?)", [.text("\(index)")]) }
        }
        try await Task.sleep(for: .milliseconds(50))
        #expect(model.$notes.fetchCount == 1, "1,000 unrelated commits ran the query again")
        try await insertNote(db, "Related")
        try await eventually("related commit") { model.notes.count == 1 }
        #expect(model.$notes.fetchCount == 2)
        await db.close()
    }

    @MainActor
    @Test func anUnchangedResultIsNotDeliveredAgain() async throws {
        let db = try await open()
        try await insertNote(db, "Same")
        let titles = db.observe(Note.all.select { $0.title })
        let received = Lock<[[String]]>([])
        let consumer = Task {
            for try await value in titles { received.withLock { $0.append(value) } }
        }
        try await eventually("first result") { received.withLock { $0.count } == 1 }
        // Changes the note, not its title: the query runs again but its result is the same.
        try await db.write { conn in try conn.execute("UPDATE note SET body = 'new body'") }
        try await db.write { conn in try conn.execute("UPDATE note SET title = 'Same'") }
        try await db.write { conn in try conn.execute("UPDATE note SET title = 'Other'") }
        try await eventually("changed title") { received.withLock { $0.count } == 2 }
        try await Task.sleep(for: .milliseconds(30))
        #expect(received.withLock { $0 } == [["Same"], ["Other"]])
        consumer.cancel()
        await db.close()
    }

    @MainActor
    @Test func aBurstOfCommitsIsFoldedIntoFewFetches() async throws {
        let db = try await open()
        let model = NoteListModel(db)
        try await eventually("first fetch") { !model.$notes.isLoading }
        let written = Atomic<Int>(0)
        let writer = Task.detached {
            for index in 0..<100 {
                try await insertNote(db, "note \(index)", at: Double(index))
                written.add(1, ordering: .relaxed)
            }
        }
        // The main actor is busy meanwhile: no value can be delivered, so the commits pile up.
        block { written.load(ordering: .relaxed) == 100 }
        try await writer.value
        try await eventually("all notes") { model.notes.count == 100 }
        #expect(model.$notes.fetchCount <= 4, "\(model.$notes.fetchCount) fetches for 100 commits")
        await db.close()
    }

    @MainActor
    @Test func observationTrackingSeesTheChange() async throws {
        let db = try await open()
        let model = NoteListModel(db)
        try await eventually("first fetch") { !model.$notes.isLoading }
        let fired = Atomic<Bool>(false)
        withObservationTracking {
            _ = model.notes
        } onChange: {
            fired.store(true, ordering: .relaxed)
        }
        try await insertNote(db, "Tracked")
        try await eventually("onChange") { fired.load(ordering: .relaxed) }

        let observed = ObservedNoteListModel(db)
        try await eventually("first fetch") { !observed.$notes.isLoading }
        let firedAgain = Atomic<Bool>(false)
        withObservationTracking {
            _ = observed.notes
        } onChange: {
            firedAgain.store(true, ordering: .relaxed)
        }
        try await insertNote(db, "Tracked again")
        try await eventually("onChange of an @Observable owner") { firedAgain.load(ordering: .relaxed) }
        #expect(observed.notes.map(\.title) == ["Tracked", "Tracked again"])
        await db.close()
    }

    @MainActor
    @Test func theObservationEndsWithItsOwner() async throws {
        let db = try await open()
        let notifier = db.databaseActor.changeCenter.notifier
        let baseline = notifier.subscriberCount
        weak var weakModel: NoteListModel?
        weak var weakState: LiveQueryState<[Note]>?
        do {
            let model = NoteListModel(db)
            weakModel = model
            weakState = model.$notes
            try await eventually("first fetch") { !model.$notes.isLoading && !model.$newest.isLoading }
            #expect(notifier.subscriberCount == baseline + 2)
        }
        try await eventually("owner released") { weakModel == nil && weakState == nil }
        #expect(notifier.subscriberCount == baseline)
        try await insertNote(db, "Nobody listens")
        await db.close()
    }

    @MainActor
    @Test func refreshErrorsAreSurfaced() async throws {
        let db = try await open()
        let model = NoteListModel(db)
        try await eventually("first fetch") { !model.$notes.isLoading }
        let stream = db.observe(Note.all)
        let outcome = Task { () -> String in
            do {
                for try await _ in stream {}
                return "ended"
            } catch {
                return "threw \(error)"
            }
        }
        try await Task.sleep(for: .milliseconds(20))
        try await db.write { conn in try conn.execute("DROP TABLE note") }
        try await eventually("error on the wrapper") { model.$notes.error != nil }
        #expect("\(model.$notes.error.map(String.init(describing:)) ?? "")".contains("no such table"))
        #expect(await outcome.value.contains("no such table"))
        await db.close()
    }

    @Test func observeDeliversTheCurrentResultThenChanges() async throws {
        let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: LiveQueryMigrations.plan)
        let values = try await withTimeout(5) {
            var seen: [Int] = []
            var iterator = database.observeOne(Note.all.count()).makeAsyncIterator()
            while let count = try await iterator.next() {
                seen.append(count ?? -1)
                if seen.count == 3 { break }
                try await database.write { conn in
                    try conn.execute("INSERT INTO note VALUES (?, 'x', '', 0)", [.text(UUID().uuidString)])
                }
            }
            return seen
        }
        #expect(values == [0, 1, 2])
        await database.close()
    }
}
