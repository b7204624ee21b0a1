import BoutiqueDB
import Foundation

// A profile that keeps its author as one JSON document, and the JSON path queries StructuredQueries'
// JSON article writes over it.

@Selection
public struct Author: Codable, Sendable, Equatable {
    public var name = ""
    public var isVerified = false
    public var nickname: String?
    public var links: [Link] = []
    public var favoriteNumbers: [Int] = []

    public init(name: String, isVerified: Bool = false, nickname: String? = nil, links: [Link] = [], favoriteNumbers: [Int] = []) {
        self.name = name
        self.isVerified = isVerified
        self.nickname = nickname
        self.links = links
        self.favoriteNumbers = favoriteNumbers
    }
}

@Selection
public struct Link: Codable, Sendable, Equatable {
    public var homepage = ""

    public init(homepage: String) { self.homepage = homepage }
}

@Table
public struct Profile: Sendable, Equatable {
    public let id: Int
    @Column(as: JSONRepresentation<Author>.self) public var author: Author
    @Column(as: JSONRepresentation<Author>.self) public var editor: Author?
    @Column(as: [String].JSONRepresentation.self) public var tags: [String] = []

    public init(id: Int, author: Author, editor: Author? = nil, tags: [String] = []) {
        self.id = id
        self.author = author
        self.editor = editor
        self.tags = tags
    }
}

public enum JSONPathShapes {
    public static func createProfiles(_ conn: DatabaseConnection) throws {
        try conn.execute(#"CREATE TABLE profile (id INTEGER PRIMARY KEY, author TEXT NOT NULL, editor TEXT, tags TEXT NOT NULL)"#)
    }

    /// Each author's name.
    public static func authorNames() -> Select<Profile.TableColumns, String> {
        Profile.select { $0.author.jsonExtract(\.name) }
    }

    /// Each author's first homepage (every author here has one).
    public static func firstHomepages() -> Select<Profile.TableColumns, String> {
        Profile.select { $0.author.jsonExtract(\.links[0].homepage) }
    }

    /// The profiles whose author is Blob.
    public static func blobs() -> Select<Profile.TableColumns, Profile> {
        Profile.where { $0.author.jsonExtract(\.name).eq("Blob") }
    }

    /// How many links each author has, and the editor's name when there is an editor.
    public static func linkCountsAndEditors() -> Select<Profile.TableColumns, (Int, String?, Int?)> {
        Profile.select { ($0.author.jsonArrayLength(\.links), $0.editor.jsonExtract(\.name), $0.editor.jsonArrayLength(\.links)) }
    }

    /// The profiles whose author links to Point-Free.
    public static func linkingToPointFree() -> Select<Profile.TableColumns, Profile> {
        Profile.where {
            $0.author.jsonEach(\.links)
                .where { $0.value.jsonExtract(\.homepage).like("%pointfree.co%") }
                .exists()
        }
    }

    /// Each profile with the sum of its author's favorite numbers.
    public static func favoriteSums() -> Select<Profile.TableColumns, (Int, Int?)> {
        Profile.select {
            (
                $0.id,
                $0.author.jsonEach(\.favoriteNumbers)
                    .select { $0.value.sum() }
            )
        }
    }

    /// Each author's name beside each of their homepages.
    public static func namesAndHomepages() -> Select<(Profile.TableColumns, JSONEachColumns<[Link]>), (String, String)> {
        Profile
            .join(Profile.columns.author.jsonEach(\.links)) { _, _ in true }
            .select {
                (
                    $0.author.jsonExtract(\.name),
                    $1.value.jsonExtract(\.homepage)
                )
            }
    }

    /// The profiles tagged urgent.
    public static func urgent() -> Select<Profile.TableColumns, Profile> {
        Profile.where {
            $0.tags.jsonEach()
                .where { $0.value.eq("urgent") }
                .exists()
        }
    }

    /// Blob, knighted, in one `json_set`.
    public static func knight() -> Update<Profile> {
        Profile.update {
            $0.author = $0.author
                .jsonSet(\.name, "Blob, Esq.")
                .jsonSet(\.isVerified, true)
        }
    }

    /// A tag, a favorite number and a link added; the nickname set where there is none.
    public static func annotate(_ id: Int) -> Update<Profile> {
        Profile.find(id).update {
            $0.tags = $0.tags.jsonAppend("reviewed")
            $0.author = $0.author.jsonAppend(\.favoriteNumbers, 42).jsonAppend(\.links, Link(homepage: "blob.dev"))
                .jsonInsert(\.nickname, "Blobby")
        }
    }

    /// The author without their first link, nor a nickname.
    public static func trimmed() -> Select<Profile.TableColumns, Author> {
        Profile.select { $0.author.jsonRemove(\.links[0]).jsonRemove(\.nickname) }
    }
}
