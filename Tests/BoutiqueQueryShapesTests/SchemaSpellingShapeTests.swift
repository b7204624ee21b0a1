import BoutiqueDB
import BoutiqueQueryShapes
import Foundation
import Testing

/// The schema spellings of ``SchemaSpellingShapes`` run on a database opened with migrations: a view
/// declared with `@Table` alone, a group of columns, a generated column from the migration's SQL and a
/// draft made from a row. Each test shows the SQL and the rows.
@Suite @MainActor struct SchemaSpellingShapeTests {
    nonisolated static let day1 = Date(timeIntervalSince1970: 86_400)
    nonisolated static let day2 = Date(timeIntervalSince1970: 2 * 86_400)

    func openObservations() async throws -> BoutiqueDB {
        try await BoutiqueDB.open(
            url: BoutiqueDB.inMemoryURL(),
            migrations: BoutiqueMigrationPlan { SchemaSpellingShapes.migration })
    }

    @Test func aViewDeclaredWithTableAloneIsQueriedLikeATable() async throws {
        let db = try await openRemindersDatabase()
        let rows = try await db.write { conn in
            try SchemaSpellingShapes.listedReminders().execute(conn)
            return try SchemaSpellingShapes.firstListedReminders().fetchAll(conn)
        }
        #expect(SchemaSpellingShapes.listedReminders().sql == #"CREATE TEMPORARY VIEW "listedReminder" ("reminderTitle", "listTitle") AS SELECT "reminder"."title", "remindersList"."title" FROM "reminder" JOIN "remindersList" ON ("reminder"."listID" = "remindersList"."id")"#)
        #expect(rows.map(\.listTitle) == ["Home", "Home", "Work"])
        #expect(rows.first?.reminderTitle == "Groceries")
        await db.close()
    }

    @Test func groupedColumnsAreWrittenReadAndCompared() async throws {
        let db = try await openObservations()
        let later = Timestamps(createdAt: Self.day2, updatedAt: nil)
        try await db.write { conn in
            try SchemaSpellingShapes.record("dew", reading: 0.5, at: Self.day1).execute(conn)
            try SchemaSpellingShapes.record("frost", reading: -1, at: Self.day2).execute(conn)
            let touched = Timestamps(createdAt: Self.day1, updatedAt: Self.day2)
            try Observation.update(Observation(id: 1, note: "dew", reading: 0.5, timestamps: touched)).execute(conn)
        }
        #expect(Observation.TableColumns.allColumns.map(\.name) == ["id", "note", "reading", "createdAt", "updatedAt", "noteLength"])
        #expect(SchemaSpellingShapes.observedBefore(Self.day1).sql.hasSuffix(#"WHERE ("observation"."createdAt" <= ?)"#))
        #expect(SchemaSpellingShapes.observed(at: later).sql.hasSuffix(#"WHERE (("observation"."createdAt", "observation"."updatedAt") = (?, ?))"#))
        let (before, newest, noLater) = try await db.read { conn in
            (
                try SchemaSpellingShapes.observedBefore(Self.day1).fetchAll(conn),
                try SchemaSpellingShapes.newestFirst().fetchAll(conn).map(\.note),
                try SchemaSpellingShapes.observedNoLaterThan(Timestamps(createdAt: Self.day1, updatedAt: Self.day2)).fetchAll(conn).map(\.id)
            )
        }
        #expect(before == [Observation(id: 1, note: "dew", reading: 0.5, timestamps: Timestamps(createdAt: Self.day1, updatedAt: Self.day2), noteLength: 3)])
        #expect(newest == ["frost", "dew"])
        #expect(noLater == [1])
        await db.close()
    }

    @Test func aGroupIsSelectedAloneAndAssignedFieldByField() async throws {
        let db = try await openObservations()
        try await db.write { conn in
            try SchemaSpellingShapes.record("dew", reading: 0.5, at: Self.day1).execute(conn)
            try SchemaSpellingShapes.record("frost", reading: -1, at: Self.day2).execute(conn)
            try SchemaSpellingShapes.touch(2, at: Self.day2).execute(conn)
        }
        #expect(SchemaSpellingShapes.touch(2, at: Self.day2).sql == #"UPDATE "observation" SET "updatedAt" = ? WHERE ("observation"."id" = ?)"#)
        #expect(SchemaSpellingShapes.timestampsByID().sql.hasPrefix(#"SELECT "observation"."createdAt", "observation"."updatedAt" FROM "observation""#))
        let stamps = try await db.read { conn in try SchemaSpellingShapes.timestampsByID().fetchAll(conn) }
        #expect(stamps == [Timestamps(createdAt: Self.day1, updatedAt: nil), Timestamps(createdAt: Self.day2, updatedAt: Self.day2)])
        await db.close()
    }

    @Test func theGeneratedColumnIsComputedByTheMigrationsSQLAndADraftCopiesARow() async throws {
        let db = try await openObservations()
        let (long, copies) = try await db.write { conn in
            try SchemaSpellingShapes.record("dew", reading: 0.5, at: Self.day1).execute(conn)
            try SchemaSpellingShapes.record("hoarfrost", reading: -3, at: Self.day2).execute(conn)
            let frost = try #require(try Observation.find(2).fetchOne(conn))
            try SchemaSpellingShapes.copy(of: frost).execute(conn)
            return (
                try SchemaSpellingShapes.longNotes().fetchAll(conn).map(\.noteLength),
                try Observation.where { $0.note == "hoarfrost" }.order { $0.id }.fetchAll(conn).map(\.id)
            )
        }
        #expect(SchemaSpellingShapes.record("x", reading: 0, at: Self.day1).sql == #"INSERT INTO "observation" ("id", "note", "reading", "createdAt", "updatedAt") VALUES (?, ?, ?, ?, ?)"#)
        #expect(long == [9, 9])
        #expect(copies == [2, 3])
        await db.close()
    }

    @Test func anOptionalGroupIsWrittenReadComparedAndCleared() async throws {
        let db = try await BoutiqueDB.open(
            url: BoutiqueDB.inMemoryURL(),
            migrations: BoutiqueMigrationPlan {
                BoutiqueMigration("v1_sightings") { conn in try CreateTableStatement(Sighting.self).execute(conn) }
            })
        let seen = Timestamps(createdAt: Self.day1, updatedAt: nil)
        let (unconfirmed, early, exact, all, afterChanges, columnsOnly) = try await db.write { conn in
            try Sighting.insert {
                Sighting(id: 1, species: "heron")
                Sighting(id: 2, species: "kite", confirmed: seen)
                Sighting(id: 3, species: "wren", confirmed: Timestamps(createdAt: Self.day2, updatedAt: nil))
            }.execute(conn)
            let before = (
                try SchemaSpellingShapes.unconfirmed().fetchAll(conn).map(\.id),
                try SchemaSpellingShapes.confirmedBefore(Self.day2).fetchAll(conn).map(\.id),
                try SchemaSpellingShapes.confirmed(at: seen).fetchAll(conn).map(\.id),
                try SchemaSpellingShapes.confirmations().fetchAll(conn)
            )
            try SchemaSpellingShapes.confirm(1, at: Self.day2).execute(conn)
            try SchemaSpellingShapes.retouch(1, at: Self.day2).execute(conn)
            try SchemaSpellingShapes.unconfirm(3).execute(conn)
            return (
                before.0, before.1, before.2, before.3,
                try SchemaSpellingShapes.confirmations().fetchAll(conn),
                try SchemaSpellingShapes.speciesWithoutTimestamps().fetchAll(conn)
            )
        }
        #expect(SchemaSpellingShapes.unconfirmed().sql.hasSuffix(#"WHERE (("sighting"."createdAt", "sighting"."updatedAt") IS (?, ?))"#))
        #expect(unconfirmed == [1])
        #expect(early == [2])
        #expect(exact == [2])
        #expect(all == [nil, seen, Timestamps(createdAt: Self.day2, updatedAt: nil)])
        #expect(afterChanges == [Timestamps(createdAt: Self.day2, updatedAt: Self.day2), seen, nil])
        #expect(columnsOnly.map(\.confirmed) == [nil, nil, nil])
        #expect(columnsOnly.map(\.species) == ["heron", "kite", "wren"])
        await db.close()
    }
}
