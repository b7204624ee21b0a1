import BoutiqueQueries
import BoutiqueSQLite
import Testing

/// After an outer join, the closures read the columns of a table that may be unmatched as optional,
/// as StructuredQueries does: a row without a match reads `nil` from them instead of failing on NULL.
@Suite("Outer joins read the unmatched side's columns as optional")
struct LeftJoinOptionalColumnsTests {
    @Table("categories")
    struct Category: Equatable {
        let id: Int
        var name = ""
        var parentID: Int?
    }

    enum Parent: AliasName {}
    enum Same: AliasName {}

    let db: Connection
    init() throws {
        db = try Connection(path: ":memory:")
        try db.execute("""
            CREATE TABLE "categories" ("id" INTEGER PRIMARY KEY, "name" TEXT NOT NULL, "parentID" INTEGER);
            INSERT INTO "categories" ("id", "name", "parentID") VALUES
                (1, 'Home', NULL), (2, 'Kitchen', 1), (3, 'Garden', NULL), (4, 'Sink', 2);
            """)
    }

    @Test func aSelfLeftJoinThroughAnAlias() throws {
        let query = Category
            .leftJoin(Category.as(Parent.self).all) { $0.parentID.eq($1.id) }
            .select { ($0.name, $1.name) }
        #expect(query.sql == #"SELECT "categories"."name", "parent"."name" FROM "categories" LEFT JOIN "categories" AS "parent" ON ("categories"."parentID" = "parent"."id")"#)
        let rows: [(String, String?)] = try query.fetchAll(db)
        #expect(rows.map(\.0) == ["Home", "Kitchen", "Garden", "Sink"])
        #expect(rows.map(\.1) == [nil, "Home", nil, "Kitchen"])
    }

    @Test func anOptionalColumnStaysSinglyOptional() throws {
        let query = Category
            .leftJoin(Category.as(Parent.self).all) { $0.parentID.eq($1.id) }
            .order { child, _ in child.id }
            .select { ($0.id, $1.parentID) }
        let rows: [(Int, Int?)] = try query.fetchAll(db)
        #expect(rows.map(\.1) == [nil, nil, nil, 1])
    }

    @Test func theWholeRowReadsAsOptional() throws {
        let query = Category
            .leftJoin(Category.as(Parent.self).all) { $0.parentID.eq($1.id) }
            .select { ($0, $1) }
        let rows = try query.fetchAll(db)
        #expect(rows.map { $0.1?.name } == [nil, "Home", nil, "Kitchen"])
        let joined = try Category.leftJoin(Category.as(Parent.self).all) { $0.parentID.eq($1.id) }.fetchAll(db)
        #expect(joined.map { $0.1?.base } == rows.map { $0.1?.base })
    }

    @Test func aLeftJoinOfAnotherTable() throws {
        let db = try makeRemindersDatabase()
        let query = RemindersList.leftJoin(Reminder.all) { $0.id == $1.listID }
            .order { list, reminder in (list.id, reminder.id) }
            .select { ($0.name, $1.title, $1.priority) }
        let rows: [(String, String?, Int?)] = try query.fetchAll(db)
        #expect(rows.map(\.1) == ["Groceries", "Haircut", "Laundry", "Email boss", "Plan offsite", nil])
        #expect(rows.last?.0 == "Empty" && rows.last?.2 == nil)
    }

    @Test func aThirdTableJoinedAfterALeftJoin() throws {
        let query = Category
            .leftJoin(Category.as(Parent.self).all) { $0.parentID.eq($1.id) }
            .join(Category.as(Same.self).all) { child, _, same in child.id.eq(same.id) }
            .where { _, parent, _ in parent.name.is(nil) }
            .select { ($0.name, $1.name, $2.name) }
        let rows: [(String, String?, String)] = try query.fetchAll(db)
        #expect(rows.map(\.0) == ["Home", "Garden"])
        #expect(rows.map(\.1) == [nil, nil])
    }

    @Test func rightAndFullJoinsReadTheirUnmatchedSidesAsOptional() throws {
        let db = try makeRemindersDatabase()
        try db.execute("PRAGMA foreign_keys = OFF; INSERT INTO reminder (id, title, listID) VALUES (6, 'Orphan', 9)")
        let right = Reminder.rightJoin(RemindersList.all) { $0.listID == $1.id }
            .where { $1.id.eq(3) }
            .select { ($0.title, $1.name) }
        let rightRows: [(String?, String)] = try right.fetchAll(db)
        #expect(rightRows.map(\.0) == [nil] && rightRows.map(\.1) == ["Empty"])

        let full = Reminder.fullJoin(RemindersList.all) { $0.listID == $1.id }
            .where { $0.id.is(nil) || $1.id.is(nil) }
            .select { ($0.title, $1.name) }
        let fullRows: [(String?, String?)] = try full.fetchAll(db)
        #expect(fullRows.map(\.0).sorted { ($0 ?? "") < ($1 ?? "") } == [nil, "Orphan"])
        #expect(fullRows.map(\.1).sorted { ($0 ?? "") < ($1 ?? "") } == [nil, "Empty"])
    }
}
