import BoutiqueQueries
import BoutiqueSQLite
import Foundation
import Testing

/// The examples of StructuredQueries' core "Query cookbook" article, over playlists and their songs:
/// scopes declared as statics and chained after other clauses, a helper on a table's columns used as
/// an aggregate's filter, and `@Selection` types that read a few columns or a row beside a count.
/// Each test shows the SQL and the rows.
@Suite("Article: query cookbook")
struct QueryCookbookArticleTests {
    @Table("playlist")
    struct Playlist: Identifiable, Equatable {
        let id: Int
        var title = ""
        var deletedAt: Date?

        static let notDeleted = Self.where { $0.deletedAt.is(nil) }
    }

    @Table("song")
    struct Song: Identifiable, Equatable {
        let id: Int
        var title = ""
        var isPlayed = false
        @Column(as: Date.ISO8601Representation.self)
        var releaseAt: Date?
        var deletedAt: Date?
        var playlistID: Playlist.ID

        static let notDeleted = Self.where { $0.deletedAt.is(nil) }
    }

    @Selection
    struct SongTitle: Equatable {
        let title: String
    }

    @Selection
    struct PlaylistWithCount: Equatable {
        let songsCount: Int
        let playlist: Playlist
    }

    static let gone = Date(timeIntervalSince1970: 1_000_000)

    /// Three playlists (the last deleted); six songs, one deleted, released long ago, today or later.
    let db: Connection
    init() throws {
        db = try Connection(path: ":memory:")
        try db.execute("""
            CREATE TABLE playlist (id INTEGER PRIMARY KEY, title TEXT NOT NULL DEFAULT '', deletedAt REAL);
            CREATE TABLE song (
                id INTEGER PRIMARY KEY, title TEXT NOT NULL DEFAULT '', isPlayed INTEGER NOT NULL DEFAULT 0,
                releaseAt TEXT, deletedAt REAL, playlistID INTEGER NOT NULL REFERENCES playlist(id)
            );
            """)
        let past = Date(timeIntervalSince1970: 946_684_800)  // 2000-01-01
        let future = Date(timeIntervalSince1970: 4_102_444_800)  // 2100-01-01
        try Playlist.insert {
            Playlist(id: 1, title: "Road trip")
            Playlist(id: 2, title: "Quiet")
            Playlist(id: 3, title: "Old mix", deletedAt: Self.gone)
        }.execute(db)
        try Song.insert {
            Song(id: 1, title: "Highway", isPlayed: false, releaseAt: past, playlistID: 1)
            Song(id: 2, title: "Detour", isPlayed: false, releaseAt: Date(), playlistID: 1)
            Song(id: 3, title: "Tomorrow", isPlayed: false, releaseAt: future, playlistID: 1)
            Song(id: 4, title: "Heard it", isPlayed: true, releaseAt: past, playlistID: 1)
            Song(id: 5, title: "Binned", isPlayed: false, releaseAt: past, deletedAt: Self.gone, playlistID: 2)
            Song(id: 6, title: "Faded", isPlayed: false, releaseAt: nil, playlistID: 3)
        }.execute(db)
    }

    @Test func scopesOnBothSidesOfALeftJoin() throws {
        let query = Playlist
            .notDeleted
            .group(by: \.id)
            .leftJoin(Song.notDeleted) {
                $0.id.eq($1.playlistID)
            }
            .select { ($0.title, $1.id.count()) }
        // StructuredQueries writes the joined select's filter into WHERE, which drops "Quiet" (its only
        // song is deleted); a left join's filtered side is read in its ON here (see "Moving from
        // StructuredQueries"), so the list is kept with no songs.
        #expect(query.sql == #"SELECT "playlist"."title", count("song"."id") FROM "playlist" LEFT JOIN "song" ON ("playlist"."id" = "song"."playlistID") AND ("song"."deletedAt" IS ?) WHERE ("playlist"."deletedAt" IS ?) GROUP BY "playlist"."id""#)
        #expect(query.bindings == [.null, .null])
        let rows = try query.fetchAll(db)
        #expect(rows.map(\.0) == ["Road trip", "Quiet"])
        #expect(rows.map(\.1) == [4, 0])

        // A table's columns count its rows by primary key, so the unmatched row counts 0.
        let byRow = Playlist.notDeleted.group(by: \.id).leftJoin(Song.notDeleted) { $0.id.eq($1.playlistID) }
            .select { ($0.title, $1.count()) }
        #expect(byRow.sql == query.sql)
        #expect(try byRow.fetchAll(db).map(\.1) == [4, 0])
    }

    @Test func aScopeChainedAfterGroupBy() throws {
        let first = Playlist
            .notDeleted
            .group(by: \.id)
            .leftJoin(Song.notDeleted) { $0.id.eq($1.playlistID) }
            .select { ($0.title, $1.id.count()) }
        let chained = Playlist
            .group(by: \.id)
            .notDeleted
            .leftJoin(Song.notDeleted) { $0.id.eq($1.playlistID) }
            .select { ($0.title, $1.id.count()) }
        #expect(chained.sql == first.sql)
        let rows = try chained.fetchAll(db)
        #expect(rows.map(\.0) == ["Road trip", "Quiet"] && rows.map(\.1) == [4, 0])
    }

    @Test func helpersOnTheColumnsFilterCounts() throws {
        let query = Song
            .select {
                (
                    $0.count(filter: $0.isOverdue),
                    $0.count(filter: $0.isOutToday),
                    $0.count(filter: $0.isUpcoming)
                )
            }
        #expect(query.sql == #"SELECT count("song"."id") FILTER (WHERE ((NOT "song"."isPlayed") AND date("song"."releaseAt") < date())), count("song"."id") FILTER (WHERE ((NOT "song"."isPlayed") AND date("song"."releaseAt") = date())), count("song"."id") FILTER (WHERE ((NOT "song"."isPlayed") AND date("song"."releaseAt") > date())) FROM "song""#)
        let counts = try #require(try query.fetchOne(db))
        // Highway and Binned are past due (Heard it is played, Faded has no date).
        #expect(counts.0 == 2 && counts.1 == 1 && counts.2 == 1)
    }

    @Test func everyTableHasAllAndUnscoped() throws {
        #expect(Song.all.sql == #"SELECT "song"."id", "song"."title", "song"."isPlayed", "song"."releaseAt", "song"."deletedAt", "song"."playlistID" FROM "song""#)
        #expect(Song.unscoped.sql == Song.all.sql)
        #expect(try Song.unscoped.fetchAll(db).count == 6)
        let open = Song.where { !$0.isPlayed }
        #expect(open.sql.hasSuffix(#"FROM "song" WHERE (NOT "song"."isPlayed")"#))
        #expect(try open.fetchAll(db).map(\.id) == [1, 2, 3, 5, 6])
    }

    @Test func aSelectionOfOneColumn() throws {
        let query = Song
            .where { !$0.isPlayed }
            .select {
                SongTitle.Columns(
                    title: $0.title
                )
            }
        #expect(query.sql == #"SELECT "song"."title" FROM "song" WHERE (NOT "song"."isPlayed")"#)
        #expect(try query.fetchAll(db) == ["Highway", "Detour", "Tomorrow", "Binned", "Faded"].map(SongTitle.init(title:)))
    }

    @Test func aSelectionOfACountAndARow() throws {
        let query = Playlist
            .group(by: \.id)
            .join(Song.all) {
                $0.id.eq($1.playlistID)
            }
            .select {
                PlaylistWithCount.Columns(
                    songsCount: $1.count(),
                    playlist: $0
                )
            }
        #expect(query.sql == #"SELECT count("song"."id"), "playlist"."id", "playlist"."title", "playlist"."deletedAt" FROM "playlist" JOIN "song" ON ("playlist"."id" = "song"."playlistID") GROUP BY "playlist"."id""#)
        #expect(try query.fetchAll(db) == [
            PlaylistWithCount(songsCount: 4, playlist: Playlist(id: 1, title: "Road trip")),
            PlaylistWithCount(songsCount: 1, playlist: Playlist(id: 2, title: "Quiet")),
            PlaylistWithCount(songsCount: 1, playlist: Playlist(id: 3, title: "Old mix", deletedAt: Self.gone)),
        ])
    }
}

extension QueryCookbookArticleTests.Song.TableColumns {
    /// Not played, and released before today (SQLite's `date()` is today in UTC).
    var isOverdue: some QueryExpression<Bool> {
        !isPlayed && #sql("date(\(releaseAt)) < date()")
    }
    var isOutToday: some QueryExpression<Bool> {
        !isPlayed && #sql("date(\(releaseAt)) = date()")
    }
    var isUpcoming: some QueryExpression<Bool> {
        !isPlayed && #sql("date(\(releaseAt)) > date()")
    }
}
