import BoutiqueDB
import BoutiqueQueryShapes
import Testing

/// Upserts on a `UNIQUE` column: updating from the refused row, `excluded` values, `DO NOTHING`.
@Suite @MainActor struct UpsertTests {
    private func tags(_ db: BoutiqueDB) async throws -> [Tag] {
        try await db.read { conn in try Tag.order { $0.id }.fetchAll(conn) }
    }

    @Test func aConflictOnTheUniqueColumnUpdatesTheOtherColumnsButNotTheKey() async throws {
        let db = try await openRemindersDatabase()
        let save = UpsertShapes.saveTag(id: 9, name: "home", uses: 5)
        #expect(save.sql == #"INSERT INTO "tag" ("id", "name", "uses") VALUES (?, ?, ?) ON CONFLICT ("name") DO UPDATE SET "uses" = excluded."uses""#)
        #expect(save.bindings == [.integer(9), .text("home"), .integer(5)])
        try await db.write { conn in
            try save.execute(conn)
            try UpsertShapes.saveTag(id: 10, name: "garden", uses: 1).execute(conn)
        }
        #expect(try await tags(db) == [
            Tag(id: 1, name: "home", uses: 5), Tag(id: 2, name: "errand", uses: 1), Tag(id: 3, name: "work", uses: 1),
            Tag(id: 10, name: "garden", uses: 1),
        ])
    }

    @Test func excludedValuesComputeTheUpdate() async throws {
        let db = try await openRemindersDatabase()
        let count = UpsertShapes.countTag(id: 9, name: "work")
        #expect(count.sql.hasSuffix(#"ON CONFLICT ("name") DO UPDATE SET "uses" = ("uses" + excluded."uses")"#))
        let mark = UpsertShapes.markTag(id: 9, name: "errand")
        #expect(mark.sql.hasSuffix(#"ON CONFLICT ("name") DO UPDATE SET "name" = (excluded."name" || ?), "uses" = ?"#))
        #expect(mark.bindings == [.integer(9), .text("errand"), .integer(0), .text("!"), .integer(100)])
        try await db.write { conn in
            try count.execute(conn)
            try count.execute(conn)
            try mark.execute(conn)
        }
        #expect(try await tags(db) == [
            Tag(id: 1, name: "home", uses: 2), Tag(id: 2, name: "errand!", uses: 100), Tag(id: 3, name: "work", uses: 3),
        ])
    }

    @Test func doNothingKeepsTheExistingRow() async throws {
        let db = try await openRemindersDatabase()
        let ifNew = UpsertShapes.addTagIfNew(id: 9, name: "home")
        #expect(ifNew.sql == #"INSERT INTO "tag" ("id", "name", "uses") VALUES (?, ?, ?) ON CONFLICT ("name") DO NOTHING"#)
        let ignoring = UpsertShapes.addTagIgnoringConflicts(id: 1, name: "new")
        #expect(ignoring.sql == #"INSERT INTO "tag" ("id", "name", "uses") VALUES (?, ?, ?) ON CONFLICT DO NOTHING"#)
        try await db.write { conn in
            try ifNew.execute(conn)
            try ignoring.execute(conn)
            try UpsertShapes.addTagIfNew(id: 9, name: "garden").execute(conn)
        }
        #expect(try await tags(db).map(\.name) == ["home", "errand", "work", "garden"])
    }

    @Test func aConflictOnAnotherColumnThanTheTargetStillFails() async throws {
        let db = try await openRemindersDatabase()
        let error = await #expect(throws: BoutiqueError.self) {
            try await db.write { conn in try UpsertShapes.addTagIfNew(id: 1, name: "brand new").execute(conn) }
        }
        #expect(error?.resultCode?.primary == .constraint)
        #expect(try await tags(db).count == 3, "nothing was written")
    }

    @Test func anInsertWithAConflictTargetDoesNothingOrUpdates() async throws {
        let db = try await openRemindersDatabase()
        let unless = UpsertShapes.insertTagUnlessNamed(id: 9, name: "home")
        #expect(unless.sql.hasSuffix(#"ON CONFLICT ("name") DO NOTHING"#))
        let counting = UpsertShapes.insertOrCountTag(id: 9, name: "work")
        #expect(counting.sql.hasSuffix(#"ON CONFLICT ("name") DO UPDATE SET "uses" = ("uses" + excluded."uses")"#))
        try await db.write { conn in
            try unless.execute(conn)
            try counting.execute(conn)
        }
        #expect(try await tags(db) == [
            Tag(id: 1, name: "home", uses: 2), Tag(id: 2, name: "errand", uses: 1), Tag(id: 3, name: "work", uses: 2),
        ])
    }
}
