import BoutiqueDB
import Foundation
import Observation
import Synchronization
import Testing

/// Live queries that name no database use `BoutiqueDB.default`.
@MainActor
final class DefaultDatabaseNotesModel {
    @LiveQuery({ Note.all.order { $0.updatedAt.desc() }.asSelect() }) var notes: [Note] = []
    @LiveQueryOne(Note.all.order { $0.title }) var first: Note?
}

/// The same in an `@Observable` class: the wrappers are `@ObservationIgnored`, and observation still
/// sees them change through their own observable state.
@MainActor
@Observable
final class ObservableDefaultDatabaseNotesModel {
    @ObservationIgnored @LiveQuery({ Note.all.order { $0.title }.asSelect() }) var notes: [Note] = []
    @ObservationIgnored @LiveQueryOne({ Note.all.order { $0.title }.asSelect() }) var first: Note?
    var filter = ""
}

/// Serialized: the default database is one value for the whole process.
@Suite(.serialized) @MainActor struct DefaultDatabaseLiveQueryTests {
    private func openDefault() async throws -> BoutiqueDB {
        let db = try await BoutiqueDB.open(url: BoutiqueDB.inMemoryURL(), migrations: LiveQueryMigrations.plan)
        BoutiqueDB.default = db
        return db
    }

    @Test func liveQueriesWithoutADatabaseFollowTheDefaultOne() async throws {
        let db = try await openDefault()
        defer { BoutiqueDB.default = nil }
        try await insertNote(db, "Older", at: 1)
        let model = DefaultDatabaseNotesModel()
        try await eventually("first fetch") { model.notes.count == 1 && model.first?.title == "Older" }
        try await insertNote(db, "Newer", at: 2)
        // Two live queries, two results on their way to the main actor: wait for both.
        try await eventually("the new note") { model.notes.map(\.title) == ["Newer", "Older"] && model.first?.title == "Newer" }
        #expect(model.first?.title == "Newer")
        #expect(model.$notes.error == nil)
        await db.close()
    }

    @Test func aLiveQueryKeepsTheDatabaseThatWasTheDefaultWhenItWasCreated() async throws {
        let first = try await openDefault()
        defer { BoutiqueDB.default = nil }
        let model = DefaultDatabaseNotesModel()
        try await eventually("first fetch") { !model.$notes.isLoading }
        let second = try await openDefault()
        try await insertNote(second, "In the second database")
        try await insertNote(first, "In the first database")
        try await eventually("the first database's note") { model.notes.count == 1 }
        #expect(model.notes.map(\.title) == ["In the first database"])
        await first.close()
        await second.close()
    }

    @Test func withoutADefaultTheDeclaredValueStaysAndTheErrorSaysWhy() async throws {
        BoutiqueDB.default = nil
        let model = DefaultDatabaseNotesModel()
        #expect(model.notes.isEmpty && model.first == nil)
        #expect(!model.$notes.isLoading)
        guard case .invalidArgument(let message) = model.$notes.error else {
            Issue.record("expected invalidArgument, got \(String(describing: model.$notes.error))")
            return
        }
        #expect(message.contains("BoutiqueDB.default is not set"))
        #expect(model.$first.error == model.$notes.error)
        #expect(model.$notes.fetchCount == 0)
    }

    @Test func observationOfAnObservableOwnerStillFires() async throws {
        let db = try await openDefault()
        defer { BoutiqueDB.default = nil }
        let model = ObservableDefaultDatabaseNotesModel()
        try await eventually("first fetch") { !model.$notes.isLoading && !model.$first.isLoading }
        let fired = Atomic<Int>(0)
        withObservationTracking {
            _ = model.notes
        } onChange: {
            fired.add(1, ordering: .relaxed)
        }
        withObservationTracking {
            _ = model.first
        } onChange: {
            fired.add(1, ordering: .relaxed)
        }
        try await insertNote(db, "Observed")
        try await eventually("both onChange calls") { fired.load(ordering: .relaxed) == 2 }
        #expect(model.notes.map(\.title) == ["Observed"])
        #expect(model.first?.title == "Observed")
        await db.close()
    }
}
