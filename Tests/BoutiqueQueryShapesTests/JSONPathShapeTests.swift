import BoutiqueDB
import BoutiqueQueryShapes
import Testing

/// The JSON path shapes, run on two profiles: Blob (verified, two links, tagged urgent, edited by
/// Blob Jr) and Blob Sr.
@Suite @MainActor struct JSONPathShapeTests {
    func openProfiles() async throws -> BoutiqueDB {
        let plan = BoutiqueMigrationPlan {
            BoutiqueMigration("v1_profiles") { conn in try JSONPathShapes.createProfiles(conn) }
        }
        let db = try await BoutiqueDB.open(url: BoutiqueDB.inMemoryURL(), migrations: plan)
        try await db.write { conn in
            try Profile.insert {
                Profile(
                    id: 1,
                    author: Author(name: "Blob", links: [Link(homepage: "pointfree.co"), Link(homepage: "blob.com")], favoriteNumbers: [1, 2]),
                    editor: Author(name: "Blob Jr"), tags: ["urgent"])
                Profile(id: 2, author: Author(name: "Blob Sr", nickname: "Sr", links: [Link(homepage: "example.com")]))
            }.execute(conn)
        }
        return db
    }

    @Test func extractAndFilter() async throws {
        let db = try await openProfiles()
        #expect(JSONPathShapes.firstHomepages().sql.hasPrefix(#"SELECT json_extract("profile"."author", '$."links"[0]."homepage"') FROM"#))
        try await db.read { conn in
            #expect(try JSONPathShapes.authorNames().fetchAll(conn).sorted() == ["Blob", "Blob Sr"])
            #expect(try JSONPathShapes.firstHomepages().fetchAll(conn).sorted() == ["example.com", "pointfree.co"])
            #expect(try JSONPathShapes.blobs().fetchAll(conn).map(\.id) == [1])
            let counts = try JSONPathShapes.linkCountsAndEditors().fetchAll(conn).sorted { $0.0 > $1.0 }
            #expect(counts.map(\.0) == [2, 1] && counts.map(\.1) == ["Blob Jr", nil] && counts.map(\.2) == [0, nil])
        }
    }

    @Test func eachElement() async throws {
        let db = try await openProfiles()
        try await db.read { conn in
            #expect(try JSONPathShapes.linkingToPointFree().fetchAll(conn).map(\.id) == [1])
            #expect(try JSONPathShapes.favoriteSums().fetchAll(conn).sorted { $0.0 < $1.0 }.map(\.1) == [3, nil])
            let pairs = try JSONPathShapes.namesAndHomepages().fetchAll(conn).sorted { $0.1 < $1.1 }
            #expect(pairs.map(\.0) == ["Blob", "Blob Sr", "Blob"])
            #expect(pairs.map(\.1) == ["blob.com", "example.com", "pointfree.co"])
            #expect(try JSONPathShapes.urgent().fetchAll(conn).map(\.id) == [1])
        }
    }

    @Test func editInPlace() async throws {
        let db = try await openProfiles()
        #expect(JSONPathShapes.knight().sql.contains(#"SET "author" = json_set("author", '$."name"', ?, '$."isVerified"', json("#))
        try await db.write { conn in
            try JSONPathShapes.knight().execute(conn)
            try JSONPathShapes.annotate(1).execute(conn)
            try JSONPathShapes.annotate(2).execute(conn)
        }
        let profiles = try await db.read { conn in try Profile.order { $0.id }.fetchAll(conn) }
        #expect(profiles.map(\.author.name) == ["Blob, Esq.", "Blob, Esq."] && profiles.allSatisfy(\.author.isVerified))
        #expect(profiles.map(\.tags) == [["urgent", "reviewed"], ["reviewed"]])
        #expect(profiles[0].author.favoriteNumbers == [1, 2, 42] && profiles[0].author.links.last == Link(homepage: "blob.dev"))
        #expect(profiles.map(\.author.nickname) == ["Blobby", "Sr"])
        let trimmed = try await db.read { conn in try JSONPathShapes.trimmed().fetchAll(conn) }
        #expect(trimmed.map(\.links.count) == [2, 1] && trimmed.allSatisfy { $0.nickname == nil })
    }
}
