import BoutiqueDB
import Foundation

// The listings of the Models and Queries article's section on JSON documents.

extension ModelsAndQueries {
    @Table
    struct Profile: Sendable {
        let id: Int
        @Column(as: JSONRepresentation<Author>.self) var author: Author
        @Column(as: [String].JSONRepresentation.self) var tags: [String] = []
    }

    @Selection
    struct Author: Codable, Sendable {
        var name = ""
        var isVerified = false
        var nickname: String?
        var links: [Link] = []
    }

    @Selection
    struct Link: Codable, Sendable {
        var homepage = ""
    }

    static func jsonPaths(_ conn: DatabaseConnection) throws -> [String] {
        let names = try Profile.select { $0.author.jsonExtract(\.name) }.fetchAll(conn)                 // [String]
        let homepages = try Profile.select { $0.author.jsonExtract(\.links[0].homepage) }.fetchAll(conn)
        let blobs = try Profile.where { $0.author.jsonExtract(\.name).eq("Blob") }.fetchAll(conn)
        let linkCounts = try Profile.select { $0.author.jsonArrayLength(\.links) }.fetchAll(conn)        // [Int]
        return ["\(names) \(homepages) \(blobs.map(\.id)) \(linkCounts)"]
    }

    static func jsonEach(_ conn: DatabaseConnection) throws -> [String] {
        let pointFree = try Profile.where {
            $0.author.jsonEach(\.links)
                .where { $0.value.jsonExtract(\.homepage).like("%pointfree.co%") }
                .exists()
        }
        .fetchAll(conn)
        let urgent = try Profile.where { $0.tags.jsonEach().where { $0.value.eq("urgent") }.exists() }.fetchAll(conn)
        let pairs = try Profile
            .join(Profile.columns.author.jsonEach(\.links)) { _, _ in true }
            .select { ($0.author.jsonExtract(\.name), $1.value.jsonExtract(\.homepage)) }
            .fetchAll(conn)                                                              // [(String, String)]
        return ["\(pointFree.map(\.id)) \(urgent.map(\.id)) \(pairs.map { "\($0.0): \($0.1)" })"]
    }

    static func jsonEdits(_ conn: DatabaseConnection) throws -> [String] {
        try Profile.update {
            $0.author = $0.author
                .jsonSet(\.name, "Blob, Esq.")
                .jsonSet(\.isVerified, true)
        }
        .execute(conn)
        try Profile.find(1).update {
            $0.tags = $0.tags.jsonAppend("reviewed")
            $0.author = $0.author.jsonAppend(\.links, Link(homepage: "blob.dev")).jsonInsert(\.nickname, "Blobby")
        }
        .execute(conn)
        return try Profile.order { $0.id }.fetchAll(conn).map { profile in
            let author = profile.author
            return "\(author.name) \(author.isVerified) \(author.nickname ?? "-") \(author.links.map(\.homepage)) \(profile.tags)"
        }
    }

    /// Runs the listings above on two profiles; returns what they read, in order.
    @MainActor
    public static func runJSONPaths() async throws -> [String] {
        let db = try await BoutiqueDB.open(url: BoutiqueDB.inMemoryURL(), migrations: migrations)
        let lines = try await db.write { conn in
            try conn.execute("CREATE TABLE profile (id INTEGER PRIMARY KEY, author TEXT NOT NULL, tags TEXT NOT NULL)")
            try Profile.insert {
                Profile(id: 1, author: Author(name: "Blob", links: [Link(homepage: "pointfree.co")]), tags: ["urgent"])
                Profile(id: 2, author: Author(name: "Blob Sr", links: [Link(homepage: "example.com")]))
            }
            .execute(conn)
            return try jsonPaths(conn) + jsonEach(conn) + jsonEdits(conn)
        }
        await db.close()
        return lines
    }
}
