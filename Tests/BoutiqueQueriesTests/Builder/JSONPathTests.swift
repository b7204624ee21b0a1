import BoutiqueQueries
import BoutiqueSQLite
import Foundation
import Testing

/// An author stored as one JSON document, with nested models, arrays, optionals and a date.
@Selection
struct Author: Codable, Equatable, Sendable {
    var name = ""
    var isVerified = false
    var nickname: String?
    var joinedAt: Date = Date(timeIntervalSinceReferenceDate: 0)
    var externalID: UUID = UUID(uuidString: "DEADBEEF-DEAD-BEEF-DEAD-BEEFDEADBEEF")!
    var links: [Link] = []
    var pastLinks: [Link] = []
    var favoriteNumbers: [Int] = []
    var mentor: Link?
    var ratings: [String: Double] = [:]
}

@Selection
struct Link: Codable, Equatable, Sendable {
    var homepage = ""
    var visits = 0
}

@Table @BoutiqueTable
struct Profile: Sendable, Equatable {
    let id: Int
    @Column(as: JSONRepresentation<Author>.self) var author: Author
    @Column(as: JSONRepresentation<Author>.self) var editor: Author?
    @Column(as: [String].JSONRepresentation.self) var tags: [String] = []
}

private let blob = Author(
    name: "Blob", isVerified: true, nickname: nil, joinedAt: Date(timeIntervalSince1970: 86_400),
    links: [Link(homepage: "pointfree.co", visits: 3)], pastLinks: [Link(homepage: "example.com", visits: 1)],
    favoriteNumbers: [3, 4, 5], mentor: Link(homepage: "blob.sr", visits: 9), ratings: ["swift": 4.5])
private let blobJr = Author(name: "Blob Jr", nickname: "Junior", favoriteNumbers: [1])

private func makeProfilesDatabase() throws -> Connection {
    let db = try Connection(path: ":memory:")
    try Profile.createTable().execute(db)
    try Profile.insert([
        Profile(id: 1, author: blob, editor: blobJr, tags: ["urgent", "home"]),
        Profile(id: 2, author: blobJr, editor: nil, tags: []),
    ]).execute(db)
    return db
}

/// Typed JSON paths: `json_extract`, `json_array_length`, the edits and `json_each`.
@Suite("JSON paths")
struct JSONPathTests {
    let db: Connection
    init() throws { db = try makeProfilesDatabase() }

    @Test func pathsRenderAsSQLitePathSyntax() {
        func text<Root, Value, Reach>(
            _ root: Root.Type, _ path: KeyPath<JSONPath<Root, JSONPathAlwaysReached>, JSONPath<Value, Reach>>
        ) -> String {
            JSONPath<Root, JSONPathAlwaysReached>()[keyPath: path].pathString
        }
        #expect(text(Author.self, \.name) == #"$."name""#)
        #expect(text(Author.self, \.links[0].homepage) == #"$."links"[0]."homepage""#)
        #expect(text(Author.self, \.pastLinks[-1]) == #"$."pastLinks"[#-1]"#)
        #expect(text(Author.self, \.self) == "$")
        #expect(text([String].self, \.[2]) == "$[2]")
        #expect(text(Author.self, \.mentor.homepage) == #"$."mentor"."homepage""#)
    }

    @Test func extractScalars() throws {
        let query = Profile.order { $0.id }.select {
            ($0.author.jsonExtract(\.name), $0.author.jsonExtract(\.isVerified), $0.author.jsonExtract(\.joinedAt),
             $0.author.jsonExtract(\.externalID), $0.author.jsonExtract(\.nickname))
        }
        #expect(query.sql.hasPrefix(
            #"SELECT json_extract("profile"."author", '$."name"'), json_extract("profile"."author", '$."isVerified"'), json_extract("profile"."author", '$."joinedAt"'), json_extract("profile"."author", '$."externalID"'), json_extract("profile"."author", '$."nickname"') FROM"#))
        let rows = try query.fetchAll(db)
        #expect(rows.count == 2)
        #expect(rows[0].0 == "Blob" && rows[0].1 == true && rows[0].2 == blob.joinedAt)
        #expect(rows[0].3 == blob.externalID && rows[0].4 == nil)
        #expect(rows[1].0 == "Blob Jr" && rows[1].1 == false && rows[1].4 == "Junior")
    }

    @Test func extractNestedValues() throws {
        let query = Profile.order { $0.id }.select {
            ($0.author.jsonExtract(\.links[0].homepage), $0.author.jsonExtract(\.pastLinks[0]),
             $0.author.jsonExtract(\.links), $0.author.jsonExtract(\.mentor.homepage), $0.author.jsonExtract(\.ratings))
        }
        #expect(query.sql.contains(#"json_extract("profile"."author", '$."links"[0]."homepage"')"#))
        // Blob Jr has no links: a non-optional path that reaches nothing is a decoding error.
        #expect { try query.fetchAll(db) } throws: { "\($0)".contains("as String: found NULL") }
        let rows = try query.where { $0.id == 1 }.fetchAll(db)
        #expect(rows[0].0 == "pointfree.co")
        #expect(rows[0].1 == Link(homepage: "example.com", visits: 1))
        #expect(rows[0].2 == blob.links)
        #expect(rows[0].3 == "blob.sr")
        #expect(rows[0].4 == ["swift": 4.5])
        let mentors = try Profile.order { $0.id }.select { $0.author.jsonExtract(\.mentor.homepage) }.fetchAll(db)
        #expect(mentors == ["blob.sr", nil])
    }

    @Test func extractFiltersAndOrders() throws {
        let query = Profile.where { $0.author.jsonExtract(\.name).eq("Blob") }.select(\.id)
        #expect(query.sql.contains(#"WHERE (json_extract("profile"."author", '$."name"') = ?)"#))
        #expect(try query.fetchAll(db) == [1])
        let byVisits = Profile.order { $0.author.jsonExtract(\.links[0].visits).desc() }.select(\.id)
        #expect(try byVisits.fetchAll(db) == [1, 2])
    }

    @Test func uuidsCompareAsJSONEncoderWritesThem() throws {
        let query = Profile.where { $0.author.jsonExtract(\.externalID).eq(blob.externalID) }.select(\.id)
        #expect(query.bindings == [.text("DEADBEEF-DEAD-BEEF-DEAD-BEEFDEADBEEF")])
        #expect(try query.fetchAll(db) == [1, 2])
        let other = UUID()
        try Profile.find(2).update { $0.author = $0.author.jsonSet(\.externalID, other) }.execute(db)
        #expect(try Profile.where { $0.author.jsonExtract(\.externalID) == other }.select(\.id).fetchAll(db) == [2])
        #expect(try Profile.find(2).fetchOne(db)?.author.externalID == other)
    }

    @Test func mapAnOptionalColumn() throws {
        let query = Profile.order { $0.id }.select {
            ($0.editor.map { $0.jsonExtract(\.name) }, $0.editor.map { $0.jsonExtract(\.nickname) },
             $0.editor.map { $0.jsonArrayLength(\.favoriteNumbers) })
        }
        #expect(query.sql.hasPrefix(
            #"SELECT CASE WHEN "profile"."editor" IS NULL THEN NULL ELSE json_extract("profile"."editor", '$."name"') END, "#))
        let rows = try query.fetchAll(db)
        #expect(rows[0].0 == "Blob Jr" && rows[0].1 == "Junior" && rows[0].2 == 1)
        #expect(rows[1].0 == nil && rows[1].1 == nil && rows[1].2 == nil)
    }

    @Test func extractFromAnOptionalColumn() throws {
        let query = Profile.order { $0.id }.select { ($0.editor.jsonExtract(\.name), $0.editor.jsonArrayLength(\.links)) }
        #expect(query.sql.hasPrefix(
            #"SELECT json_extract("profile"."editor", '$."name"'), json_array_length("profile"."editor", '$."links"') FROM"#))
        let rows = try query.fetchAll(db)
        #expect(rows[0].0 == "Blob Jr" && rows[0].1 == 0)
        #expect(rows[1].0 == nil && rows[1].1 == nil)
    }

    @Test func arrayLengthAtAPath() throws {
        let query = Profile.order { $0.id }.select { ($0.author.jsonArrayLength(\.favoriteNumbers), $0.tags.jsonArrayLength()) }
        #expect(query.sql.hasPrefix(#"SELECT json_array_length("profile"."author", '$."favoriteNumbers"'), json_array_length("profile"."tags") FROM"#))
        let rows = try query.fetchAll(db)
        #expect(rows.map(\.0) == [3, 1] && rows.map(\.1) == [2, 0])
    }

    @Test func setFusesConsecutiveCallsAndKeepsCodableForms() throws {
        let update = Profile.where { $0.id == 2 }.update {
            $0.author = $0.author.jsonSet(\.name, "Blob, Esq.").jsonSet(\.isVerified, true)
                .jsonSet(\.joinedAt, Date(timeIntervalSince1970: 1_000_000))
        }
        #expect(update.sql.contains(#"SET "author" = json_set("author", '$."name"', ?, '$."isVerified"', json(CASE WHEN ? IS NULL THEN NULL WHEN ? THEN 'true' ELSE 'false' END), '$."joinedAt"', "#))
        try update.execute(db)
        let author = try #require(try Profile.find(2).fetchOne(db)).author
        #expect(author.name == "Blob, Esq." && author.isVerified)
        #expect(author.joinedAt == Date(timeIntervalSince1970: 1_000_000))
        #expect(author.favoriteNumbers == [1])
    }

    @Test func setModelsArraysAndOptionalsFromSwiftValues() throws {
        let links = [Link(homepage: "a.co", visits: 1), Link(homepage: "b.co", visits: 2)]
        try Profile.where { $0.id == 2 }.update {
            $0.author = $0.author.jsonSet(\.links, links).jsonSet(\.mentor, Link(homepage: "m.co")).jsonSet(\.nickname, nil)
        }.execute(db)
        let author = try #require(try Profile.find(2).fetchOne(db)).author
        #expect(author.links == links && author.mentor == Link(homepage: "m.co") && author.nickname == nil)
        let select = Profile.find(1).select { $0.author.jsonSet(\.nickname, "Blobby") }
        #expect(try select.fetchOne(db)?.nickname == "Blobby")
    }

    @Test func insertReplaceAndRemove() throws {
        let query = Profile.order { $0.id }.select {
            (
                $0.author.jsonInsert(\.nickname, "Blobby").jsonInsert(\.name, "ignored"),
                $0.author.jsonReplace(\.nickname, "Replaced"),
                $0.author.jsonRemove(\.mentor).jsonRemove(\.links[0])
            )
        }
        #expect(query.sql.hasPrefix(
            #"SELECT json_insert("profile"."author", '$."nickname"', json(?), '$."name"', ?), json_replace("profile"."author", '$."nickname"', json(?)), json_remove("profile"."author", '$."mentor"', '$."links"[0]') FROM"#))
        let rows = try query.fetchAll(db)
        #expect(rows[0].0.nickname == "Blobby" && rows[0].0.name == "Blob")
        #expect(rows[1].0.nickname == "Junior")
        #expect(rows[0].1.nickname == nil && rows[1].1.nickname == "Replaced")
        #expect(rows[0].2.mentor == nil && rows[0].2.links.isEmpty && rows[0].2.pastLinks == blob.pastLinks)
    }

    @Test func differentEditsNest() throws {
        let query = Profile.find(1).select { $0.author.jsonSet(\.name, "A").jsonRemove(\.mentor).jsonSet(\.nickname, "B") }
        #expect(query.sql.hasPrefix(
            #"SELECT json_set(json_remove(json_set("profile"."author", '$."name"', ?), '$."mentor"'), '$."nickname"', json(?)) FROM"#))
        let author = try #require(try query.fetchOne(db))
        #expect(author.name == "A" && author.mentor == nil && author.nickname == "B")
    }

    @Test func anEditInsideAValueSetInTheSameCallStartsANewCall() throws {
        // SQLite before 3.45 skips a path under a value the same call wrote: the edits nest instead.
        let select = Profile.find(1).select {
            $0.author.jsonSet(\.links, [Link(homepage: "a.co")]).jsonSet(\.links[1], Link(homepage: "b.co"))
                .jsonSet(\.name, "N")
        }
        #expect(select.sql.hasPrefix(
            #"SELECT json_set(json_set("profile"."author", '$."links"', json(?)), '$."links"[1]', json(?), '$."name"', ?) FROM"#))
        let author = try #require(try select.fetchOne(db))
        #expect(author.links.map(\.homepage) == ["a.co", "b.co"] && author.name == "N")
    }

    @Test func aValueJSONCannotHoldFailsTheStatementAndChangesNothing() throws {
        let update = Profile.find(1).update { $0.author = $0.author.jsonSet(\.ratings, ["swift": .infinity]) }
        #expect { try update.execute(db) } throws: { "\($0)".contains("malformed JSON") }
        #expect(try Profile.find(1).fetchOne(db)?.author.ratings == ["swift": 4.5])
    }

    @Test func longChainsStayWithinSQLitesArgumentLimit() throws {
        let edit = (1...100).reduce(Profile.columns.author.jsonAppend(\.favoriteNumbers, 0)) { edit, number in
            edit.jsonAppend(\.favoriteNumbers, number)
        }
        #expect(edit.queryFragment.sql.hasPrefix("json_insert(json_insert("))
        try Profile.find(2).update { $0.author = edit }.execute(db)
        #expect(try Profile.find(2).fetchOne(db)?.author.favoriteNumbers == [1] + Array(0...100))
    }

    @Test func appendToArrays() throws {
        try Profile.where { $0.id == 1 }.update {
            $0.tags = $0.tags.jsonAppend("work")
            $0.author = $0.author.jsonAppend(\.favoriteNumbers, 6).jsonAppend(\.links, Link(homepage: "new.co"))
        }.execute(db)
        let profile = try #require(try Profile.find(1).fetchOne(db))
        #expect(profile.tags == ["urgent", "home", "work"])
        #expect(profile.author.favoriteNumbers == [3, 4, 5, 6])
        #expect(profile.author.links.last == Link(homepage: "new.co"))
        let sql = Profile.all.select { $0.author.jsonAppend(\.favoriteNumbers, 6) }.sql
        #expect(sql.hasPrefix(#"SELECT json_insert("profile"."author", '$."favoriteNumbers"[#]', ?) FROM"#))
    }

    @Test func arrayInsertNeedsSQLite353() throws {
        let query = Profile.find(1).select { $0.author.jsonArrayInsert(\.favoriteNumbers[0], 2) }
        #expect(query.sql.hasPrefix(#"SELECT json_array_insert("profile"."author", '$."favoriteNumbers"[0]', ?) FROM"#))
        if try sqliteVersionNumber(db) >= 3_053_000 {
            #expect(try query.fetchOne(db)?.favoriteNumbers == [2, 3, 4, 5])
        } else {
            #expect { try query.fetchOne(db) } throws: { "\($0)".contains("no such function: json_array_insert") }
        }
    }

    @Test func eachElementOfAnArrayColumn() throws {
        let query = Profile.where { $0.tags.jsonEach().where { $0.value.eq("urgent") }.exists() }.select(\.id)
        #expect(query.sql.contains(
            #"(EXISTS (SELECT "json_each"."key", "json_each"."value" FROM json_each("profile"."tags") WHERE ("json_each"."value" = ?)))"#))
        #expect(try query.fetchAll(db) == [1])
        let elements = try Profile.find(1).select { $0.tags.jsonEach().select { $0.value.groupConcat() } }.fetchOne(db)
        #expect(elements == "urgent,home")
        let pairs = try Profile.join(Profile.columns.tags.jsonEach()) { _, _ in true }.select { ($0.id, $1) }.fetchAll(db)
        #expect(pairs.map(\.0) == [1, 1] && pairs.map(\.1) == [JSONEach(key: 0, value: "urgent"), JSONEach(key: 1, value: "home")])
    }

    @Test func eachElementLeftJoinedReadsNilForAnEmptyArray() throws {
        let query = Profile.leftJoin(Profile.columns.tags.jsonEach()) { _, _ in true }
            .order { profile, element in (profile.id, element.key) }
            .select { ($0.id, $1.value) }
        #expect(query.sql.hasPrefix(#"SELECT "profile"."id", "json_each"."value" FROM "profile" LEFT JOIN json_each("profile"."tags") ON ?"#))
        let rows: [(Int, String?)] = try query.fetchAll(db)
        #expect(rows.map(\.0) == [1, 1, 2])
        #expect(rows.map(\.1) == ["urgent", "home", nil])
    }

    @Test func eachElementAtAPath() throws {
        let query = Profile.where {
            $0.author.jsonEach(\.links).where { $0.value.jsonExtract(\.homepage).like("%pointfree%") }.exists()
        }.select(\.id)
        #expect(query.sql.contains(
            #"FROM json_each("profile"."author", '$."links"') WHERE (json_extract("json_each"."value", '$."homepage"') LIKE ?)"#))
        #expect(try query.fetchAll(db) == [1])
        let sums = Profile.order { $0.id }.select { ($0.id, $0.author.jsonEach(\.favoriteNumbers).select { $0.value.sum() }) }
        #expect(try sums.fetchAll(db).map(\.1) == [12, 1])
    }

    @Test func joinEachElement() throws {
        let query = Profile.join(Profile.columns.author.jsonEach(\.links)) { _, _ in true }
            .select { ($0.author.jsonExtract(\.name), $1.value.jsonExtract(\.homepage), $1.key) }
        #expect(query.sql.contains(#"JOIN json_each("profile"."author", '$."links"') ON"#))
        let rows = try query.fetchAll(db)
        #expect(rows.count == 1 && rows[0].0 == "Blob" && rows[0].1 == "pointfree.co" && rows[0].2 == 0)
        let pairs = try Profile.join(Profile.columns.author.jsonEach(\.ratings)) { _, _ in true }.select { ($1.key, $1.value) }
            .fetchAll(db)
        #expect(pairs.count == 1 && pairs[0].0 == "swift" && pairs[0].1 == 4.5)
        let whole = try Profile.join(Profile.columns.author.jsonEach(\.pastLinks)) { _, _ in true }.fetchAll(db)
        #expect(whole.count == 1 && whole[0].1 == JSONEach(key: 0, value: Link(homepage: "example.com", visits: 1)))
    }

    @Test func eachOfAnOptionalColumnIsEmptyForNull() throws {
        let counts = Profile.order { $0.id }.select { $0.editor.jsonEach(\.favoriteNumbers).select { $0.key.count() } }
        #expect(counts.sql.contains(#"FROM json_each("profile"."editor", '$."favoriteNumbers"')"#))
        #expect(try counts.fetchAll(db) == [1, 0])
    }
}

/// SQLite's version as a number: 3.40.1 is 3040001.
func sqliteVersionNumber(_ db: Connection) throws -> Int {
    let statement = try db.prepare("SELECT sqlite_version()")
    _ = try statement.step()
    let parts = try statement.string(at: 0).split(separator: ".").compactMap { Int($0) }
    return parts.count >= 3 ? parts[0] * 1_000_000 + parts[1] * 1_000 + parts[2] : 0
}
