import BoutiqueQueries
import BoutiqueSQLite
import Foundation
import Testing

/// StructuredQueries' "Package traits" article: a `Codable` table whose column is renamed with
/// `@Column("…")` (the `ColumnCoding` trait's example), queried and encoded.
@Suite("Article: package traits")
struct TraitsArticleTests {
    @Table("reminders")
    struct Reminder: Codable, Equatable {
        let id: Int
        @Column("is_completed")
        var isCompleted = false
    }

    @Test func aRenamedColumnOfACodableTable() throws {
        let db = try Connection(path: ":memory:")
        try db.execute(#"CREATE TABLE "reminders" ("id" INTEGER PRIMARY KEY, "is_completed" INTEGER NOT NULL DEFAULT 0)"#)
        try Reminder.insert { Reminder(id: 1, isCompleted: true); Reminder(id: 2) }.execute(db)
        let done = Reminder.where(\.isCompleted)
        #expect(done.sql == #"SELECT "reminders"."id", "reminders"."is_completed" FROM "reminders" WHERE "reminders"."is_completed""#)
        #expect(try done.fetchAll(db) == [Reminder(id: 1, isCompleted: true)])

        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(Reminder(id: 3, isCompleted: true))) as? [String: Any]
        #expect(json?.keys.sorted() == ["id", "isCompleted"])
    }
}
