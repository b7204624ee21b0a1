@testable import BoutiqueDB
import Foundation
import Testing

/// The database the seed's model class names `db`, as an app keeps it.
@MainActor fileprivate var db: BoutiqueDB!

/// The seed's section 5, as written but for the query being the attribute's second argument and, on
/// Linux, no `ObservableObject`.
@MainActor
final class NotesModel {
    @LiveQuery(db, { Note.all.order { $0.updatedAt.desc() }.asSelect() })
    var notes: [Note] = []
}

#if canImport(Combine)
import Combine

/// The seed's section 5 word for word (where Combine exists).
@MainActor
final class ObservableNotesModel: ObservableObject {
    @LiveQuery(db, { Note.all.order { $0.updatedAt.desc() }.asSelect() })
    var notes: [Note] = []
}
#endif

@Suite(.serialized) struct LiveQuerySeedTests {
    @MainActor
    @Test func theSeedsLiveQueryFollowsTheDatabase() async throws {
        db = try await BoutiqueDB.open(url: BoutiqueDB.inMemoryURL(), migrations: AppMigrations.plan)
        let model = NotesModel()
        #expect(model.notes.isEmpty)
        try await eventually { !model.$notes.isLoading }
        try await insertNote(db, "Older", at: 1)
        try await insertNote(db, "Newer", at: 2)
        try await eventually("both notes") { model.notes.count == 2 }
        #expect(model.notes.map(\.title) == ["Newer", "Older"])
        #expect(model.$notes.error == nil)
        await db.close()
    }
}
