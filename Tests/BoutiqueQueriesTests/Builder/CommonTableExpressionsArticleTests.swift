import BoutiqueQueries
import BoutiqueSQLite
import Testing

/// Private to the file, as the article declares it (a private type nested in the suite would be out of
/// reach of the extension the macro adds at file level).
@Selection
private struct Fibonacci {
    let n: Int
    let prevFib: Int
    let fib: Int
}

/// The common table expressions of StructuredQueries' article, in its spelling: each CTE's rows are a
/// type marked only `@Selection`, read after `WITH` as a table (`where`, `select`, `order`, `limit`,
/// a join, `in` of a subquery). A small library of shelves, books and genres stands in for the data.
@Suite("Common table expressions, as the StructuredQueries article writes them")
struct CommonTableExpressionsArticleTests {
    @Table("shelf")
    struct Shelf: Equatable {
        let id: Int
        var label: String
    }

    @Table("book")
    struct Book: Equatable {
        let id: Int
        var title: String
        var rating: Int?
        var shelfID: Int
    }

    @Table("genre")
    struct Genre: Equatable {
        let id: Int
        var name: String
        var parentID: Int?
    }

    /// The shelves whose books are rated above 3 on average.
    @Selection
    struct WellRatedShelf {
        let id: Int
    }

    @Selection
    struct Counts {
        let value: Int
    }

    /// A genre below the root of a tree walk, with its depth.
    @Selection
    struct Subgenre: Equatable {
        let id: Int
        let name: String
        let depth: Int
    }

    let db: Connection
    init() throws {
        db = try Connection(path: ":memory:")
        try db.execute("""
            CREATE TABLE shelf (id INTEGER PRIMARY KEY, label TEXT NOT NULL);
            CREATE TABLE book (id INTEGER PRIMARY KEY, title TEXT NOT NULL, rating INTEGER, shelfID INTEGER NOT NULL);
            CREATE TABLE genre (id INTEGER PRIMARY KEY, name TEXT NOT NULL, parentID INTEGER);
            INSERT INTO shelf VALUES (1, 'Hallway'), (2, 'Study'), (3, 'Attic');
            INSERT INTO book VALUES (1, 'Dune', 5, 1), (2, 'Emma', 4, 1), (3, 'Ulysses', 2, 2),
                (4, 'Beloved', 3, 2), (5, 'Middlemarch', NULL, 3);
            INSERT INTO genre VALUES (1, 'Fiction', NULL), (2, 'Science fiction', 1), (3, 'Space opera', 2),
                (4, 'Cyberpunk', 2), (5, 'Non-fiction', NULL), (6, 'Romance', 1);
            """)
    }

    /// The CTE of the article's first example: lists grouped and filtered, selected into the CTE's rows.
    private var wellRatedShelves: Select<(Shelf.TableColumns, OptionalTableColumns<Book.TableColumns>), WellRatedShelf> {
        Shelf
            .group(by: \.id)
            .leftJoin(Book.all) { $0.id.eq($1.shelfID) }
            .select { shelf, _ in WellRatedShelf.Columns(id: shelf.id) }
            .having { $1.rating.avg() > 3.0 }
    }

    @Test func aCTEReadByASubquery() throws {
        let query = With {
            wellRatedShelves
        } query: {
            Shelf.where { $0.id.in(WellRatedShelf.select { $0.id }) }
        }
        #expect(query.sql == #"WITH "wellRatedShelf"("id") AS (SELECT "shelf"."id" FROM "shelf" LEFT JOIN "book" ON ("shelf"."id" = "book"."shelfID") GROUP BY "shelf"."id" HAVING (avg("book"."rating") > ?)) SELECT "shelf"."id", "shelf"."label" FROM "shelf" WHERE ("shelf"."id" IN (SELECT "wellRatedShelf"."id" FROM "wellRatedShelf"))"#)
        #expect(try query.fetchAll(db) == [Shelf(id: 1, label: "Hallway")])
    }

    @Test func aCTEReadByAKeyPathSelectWithMoreFilters() throws {
        let query = With {
            wellRatedShelves
        } query: {
            Shelf
                .where { $0.id.in(WellRatedShelf.select(\.id)) }
                .where { $0.label.contains("all") }
                .order(by: \.label)
        }
        #expect(try query.fetchAll(db).map(\.label) == ["Hallway"])
    }

    @Test func aCTEBeforeAnUpdate() throws {
        let update = With {
            wellRatedShelves
        } query: {
            Shelf
                .where { $0.id.in(WellRatedShelf.select(\.id)) }
                .update { $0.label += " (favourites)" }
        }
        #expect(update.query.sql.hasPrefix(#"WITH "wellRatedShelf"("id") AS (SELECT "shelf"."id" FROM "shelf""#))
        #expect(update.query.sql.hasSuffix(#"UPDATE "shelf" SET "label" = ("label" || ?) WHERE ("shelf"."id" IN (SELECT "wellRatedShelf"."id" FROM "wellRatedShelf"))"#))
        try update.execute(db)
        #expect(try Shelf.order(by: \.id).select(\.label).fetchAll(db) == ["Hallway (favourites)", "Study", "Attic"])
    }

    @Test func aCTEBeforeADelete() throws {
        let delete = With {
            wellRatedShelves
        } query: {
            Shelf.where { !$0.id.in(WellRatedShelf.select(\.id)) }.delete()
        }
        try delete.execute(db)
        #expect(try Shelf.all.fetchAll(db) == [Shelf(id: 1, label: "Hallway")])
    }

    @Test func aCounterFromOneToAHundred() throws {
        let query = With {
            Counts(value: 1)
                .union(
                    all: true,
                    Counts.select {
                        Counts.Columns(value: $0.value + 1)
                    }
                )
        } query: {
            Counts.limit(100)
        }
        #expect(query.sql == #"WITH "counts"("value") AS (SELECT ? UNION ALL SELECT ("counts"."value" + ?) FROM "counts") SELECT "counts"."value" FROM "counts" LIMIT ?"#)
        #expect(try query.fetchAll(db).map(\.value) == Array(1...100))
    }

    @Test func theFirstTenFibonacciNumbers() throws {
        let query = With {
            Fibonacci(n: 1, prevFib: 0, fib: 1)
                .union(
                    all: true,
                    Fibonacci
                        .select {
                            Fibonacci.Columns(n: $0.n + 1, prevFib: $0.fib, fib: $0.prevFib + $0.fib)
                        }
                )
        } query: {
            Fibonacci
                .select(\.fib)
                .limit(10)
        }
        #expect(query.sql == #"WITH "fibonacci"("n", "prevFib", "fib") AS (SELECT ?, ?, ? UNION ALL SELECT ("fibonacci"."n" + ?), "fibonacci"."fib", ("fibonacci"."prevFib" + "fibonacci"."fib") FROM "fibonacci") SELECT "fibonacci"."fib" FROM "fibonacci" LIMIT ?"#)
        #expect(try query.fetchAll(db) == [1, 1, 2, 3, 5, 8, 13, 21, 34, 55])
    }

    @Test func aTreeWalkedDownFromItsRoot() throws {
        let query = With {
            Genre
                .where { $0.name.eq("Fiction") }
                .select { Subgenre.Columns(id: $0.id, name: $0.name, depth: 0) }
                .union(
                    all: true,
                    Genre
                        .join(Subgenre.all) { $0.parentID == $1.id }
                        .select { Subgenre.Columns(id: $0.id, name: $0.name, depth: $1.depth + 1) }
                )
        } query: {
            Subgenre
                .where { $0.depth > 0 }
                .order { ($0.depth, $0.name) }
        }
        #expect(query.sql == #"WITH "subgenre"("id", "name", "depth") AS (SELECT "genre"."id", "genre"."name", ? FROM "genre" WHERE ("genre"."name" = ?) UNION ALL SELECT "genre"."id", "genre"."name", ("subgenre"."depth" + ?) FROM "genre" JOIN "subgenre" ON ("genre"."parentID" = "subgenre"."id")) SELECT "subgenre"."id", "subgenre"."name", "subgenre"."depth" FROM "subgenre" WHERE ("subgenre"."depth" > ?) ORDER BY "subgenre"."depth", "subgenre"."name""#)
        #expect(try query.fetchAll(db) == [
            Subgenre(id: 6, name: "Romance", depth: 1),
            Subgenre(id: 2, name: "Science fiction", depth: 1),
            Subgenre(id: 4, name: "Cyberpunk", depth: 2),
            Subgenre(id: 3, name: "Space opera", depth: 2),
        ])
    }

    @Test func aCTEReadByAllAndJoinedToAStoredTable() throws {
        let query = With {
            wellRatedShelves
        } query: {
            Book.join(WellRatedShelf.all) { $0.shelfID.eq($1.id) }
                .order { book, _ in book.title }
                .select { book, _ in book.title }
        }
        #expect(try query.fetchAll(db) == ["Dune", "Emma"])
    }

    @Test func aCTEOrderedFromItsType() throws {
        let query = With {
            Genre.where { $0.parentID.is(nil) }.select { Subgenre.Columns(id: $0.id, name: $0.name, depth: 0) }
        } query: {
            Subgenre.order { $0.name.desc() }
        }
        #expect(query.sql.hasSuffix(#"SELECT "subgenre"."id", "subgenre"."name", "subgenre"."depth" FROM "subgenre" ORDER BY "subgenre"."name" DESC"#))
        #expect(try query.fetchAll(db).map(\.name) == ["Non-fiction", "Fiction"])
    }
    @Test func theQueryBeforeItIsFactoredIntoACTE() throws {
        let query = Shelf
            .group(by: \.id)
            .leftJoin(Book.all) { $0.id.eq($1.shelfID) }
            .select { shelf, _ in shelf }
            .having { $1.rating.avg() > 3.0 }
        #expect(query.sql == #"SELECT "shelf"."id", "shelf"."label" FROM "shelf" LEFT JOIN "book" ON ("shelf"."id" = "book"."shelfID") GROUP BY "shelf"."id" HAVING (avg("book"."rating") > ?)"#)
        #expect(try query.fetchAll(db) == [Shelf(id: 1, label: "Hallway")])
    }
}
