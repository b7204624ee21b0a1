import BoutiqueQueries
import BoutiqueSQLite
import BoutiqueTestSupport
import Foundation
import Testing

/// Random chains of JSON edits (`jsonSet`, `jsonInsert`, `jsonReplace`, `jsonRemove`, `jsonAppend`)
/// over random authors with hostile text, run in SQLite and, as the same change, on the Swift value:
/// the document SQLite writes must decode as the author Swift computes. Then every field is read back
/// with `jsonExtract` and compared with the Swift value's.
@Suite("Fuzz: JSON edits in SQL against the same edits in Swift")
struct JSONPathFuzzTests {
    static let rounds = 300

    @Test(arguments: 0..<3)
    func editsMatchSwift(seed: UInt64) throws {
        var random = SeededRandom(seed: 0x750A_0100 + seed)
        let db = try Connection(path: ":memory:")
        try Profile.createTable().execute(db)
        for round in 0..<Self.rounds {
            let start = Self.author(&random)
            try Profile.delete().execute(db)
            try Profile.insert([Profile(id: 1, author: start, editor: nil)]).execute(db)
            let edits = (0..<random.int(in: 1...6)).map { _ in JSONEditStep.random(&random) }
            var expected = start
            for edit in edits { edit.apply(to: &expected) }

            try Profile.find(1).update { $0.author = JSONEditStep.chain(edits, on: $0.author) }.execute(db)
            let stored = try #require(try Profile.find(1).fetchOne(db)).author
            try #require(Self.same(stored, expected), "round \(round): \(edits) on \(start) gave \(stored), not \(expected)")

            let read = try #require(try Profile.find(1).select {
                ($0.author.jsonExtract(\.name), $0.author.jsonExtract(\.nickname), $0.author.jsonExtract(\.isVerified),
                 $0.author.jsonExtract(\.joinedAt), $0.author.jsonArrayLength(\.links), $0.author.jsonExtract(\.mentor.visits))
            }.fetchOne(db))
            // SQLite's `json_extract` gives text up to its first NUL character (the document keeps it all).
            #expect(read.0 == Self.upToNUL(expected.name) && read.1 == expected.nickname.map(Self.upToNUL))
            #expect(read.2 == expected.isVerified)
            #expect(abs(read.3.timeIntervalSince(expected.joinedAt)) < 1e-6 && read.4 == expected.links.count)
            #expect(read.5 == expected.mentor?.visits)
        }
    }

    static func upToNUL(_ text: String) -> String {
        String(text.unicodeScalars.prefix { $0 != "\u{0}" })
    }

    /// Equal, dates to the microsecond: a date goes into SQL as seconds since 1970 and into JSON as
    /// seconds since 2001, and the subtraction may round the last bit.
    static func same(_ lhs: Author, _ rhs: Author) -> Bool {
        var left = lhs
        left.joinedAt = rhs.joinedAt
        return left == rhs && abs(lhs.joinedAt.timeIntervalSince(rhs.joinedAt)) < 1e-6
    }

    static func author(_ random: inout SeededRandom) -> Author {
        Author(
            name: HostileStrings.stored(&random), isVerified: random.chance(50),
            nickname: random.chance(50) ? HostileStrings.stored(&random) : nil, joinedAt: date(&random),
            links: (0..<random.below(3)).map { _ in link(&random) }, pastLinks: [],
            favoriteNumbers: (0..<random.below(4)).map { _ in random.int(in: -1000...1000) },
            mentor: random.chance(50) ? link(&random) : nil, ratings: [:])
    }

    static func link(_ random: inout SeededRandom) -> Link {
        Link(homepage: HostileStrings.stored(&random), visits: random.int(in: 0...1_000_000))
    }

    static func date(_ random: inout SeededRandom) -> Date {
        Date(timeIntervalSince1970: Double(random.int(in: -2_000_000_000...4_000_000_000)) + Double(random.below(1_000_000)) / 1e6)
    }
}

/// One edit, applied in SQL (`chain`) or to a Swift author (`apply`).
enum JSONEditStep {
    case setName(String)
    case setVerified(Bool)
    case setJoinedAt(Date)
    case insertNickname(String)
    case replaceNickname(String)
    case removeNickname
    case appendNumber(Int)
    case appendLink(Link)
    case removeFirstLink
    case setLastHomepage(String)
    case setMentorVisits(Int)
    case setLinks([Link])
    case setLinkAt(Int, Link)

    static func random(_ random: inout SeededRandom) -> JSONEditStep {
        switch random.below(13) {
        case 0: .setName(HostileStrings.stored(&random))
        case 1: .setVerified(random.chance(50))
        case 2: .setJoinedAt(JSONPathFuzzTests.date(&random))
        case 3: .insertNickname(HostileStrings.stored(&random))
        case 4: .replaceNickname(HostileStrings.stored(&random))
        case 5: .removeNickname
        case 6: .appendNumber(random.int(in: -5...5))
        case 7: .appendLink(JSONPathFuzzTests.link(&random))
        case 8: .removeFirstLink
        case 9: .setLastHomepage(HostileStrings.stored(&random))
        case 10: .setMentorVisits(random.int(in: 0...99))
        case 11: .setLinkAt(random.int(in: -3...3), JSONPathFuzzTests.link(&random))
        default: .setLinks((0..<random.below(3)).map { _ in JSONPathFuzzTests.link(&random) })
        }
    }

    func apply(to author: inout Author) {
        switch self {
        case .setName(let name): author.name = name
        case .setVerified(let value): author.isVerified = value
        case .setJoinedAt(let date): author.joinedAt = date
        case .insertNickname(let name): if author.nickname == nil { author.nickname = name }
        case .replaceNickname(let name): if author.nickname != nil { author.nickname = name }
        case .removeNickname: author.nickname = nil
        case .appendNumber(let number): author.favoriteNumbers.append(number)
        case .appendLink(let link): author.links.append(link)
        case .removeFirstLink: if !author.links.isEmpty { author.links.removeFirst() }
        case .setLastHomepage(let homepage): if !author.links.isEmpty { author.links[author.links.count - 1].homepage = homepage }
        // `json_replace` changes nothing where the optional object the path goes through is missing.
        case .setMentorVisits(let visits): author.mentor?.visits = visits
        case .setLinks(let links): author.links = links
        // `json_set` at an index replaces that element, appends one at the end's index, and changes
        // nothing further out; a negative index counts from the end.
        case .setLinkAt(let index, let link):
            let position = index < 0 ? author.links.count + index : index
            if position >= 0, position < author.links.count {
                author.links[position] = link
            } else if index >= 0, position == author.links.count {
                author.links.append(link)
            }
        }
    }

    /// The edits applied one after another to `document`.
    static func chain(_ steps: [JSONEditStep], on document: some QueryExpression<JSONRepresentation<Author>>) -> JSONEdit<Author> {
        var edited = steps[0].edit(document)
        for step in steps.dropFirst() { edited = step.edit(edited) }
        return edited
    }

    func edit(_ document: some QueryExpression<JSONRepresentation<Author>>) -> JSONEdit<Author> {
        switch self {
        case .setName(let name): document.jsonSet(\.name, name)
        case .setVerified(let value): document.jsonSet(\.isVerified, value)
        case .setJoinedAt(let date): document.jsonSet(\.joinedAt, date)
        case .insertNickname(let name): document.jsonInsert(\.nickname, name)
        case .replaceNickname(let name): document.jsonReplace(\.nickname, name)
        case .removeNickname: document.jsonRemove(\.nickname)
        case .appendNumber(let number): document.jsonAppend(\.favoriteNumbers, number)
        case .appendLink(let link): document.jsonAppend(\.links, link)
        case .removeFirstLink: document.jsonRemove(\.links[0])
        case .setLastHomepage(let homepage): document.jsonReplace(\.links[-1].homepage, homepage)
        case .setMentorVisits(let visits): document.jsonReplace(\.mentor.visits, visits)
        case .setLinks(let links): document.jsonSet(\.links, links)
        case .setLinkAt(let index, let link): document.jsonSet(\.links[index], link)
        }
    }
}
