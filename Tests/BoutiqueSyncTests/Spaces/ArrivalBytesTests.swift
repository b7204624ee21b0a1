import BoutiqueSync
import BoutiqueSyncServer
import Foundation
import Testing

/// A row moving into a user's spaces reaches their devices with its whole state: a pull's page counts
/// those states against its bytes and carries each row's once, however often it moved, so a small
/// push of moves cannot make a pull answer many times larger than the page limit.
@Suite struct ArrivalBytesTests {
    static let pageBytes = 30_000
    /// A title of 10 kB: a third of a page (small, so that the runs under a sanitizer stay short).
    static let bigTitle = String(repeating: "x", count: 10_000)

    /// Bob's pulls from `cursor` to the end, as sent (JSON), with their pages' sizes.
    static func pages(of app: SharedReminders, after cursor: Int64) async throws -> [(response: PullResponse, bytes: Int)] {
        var pages: [(PullResponse, Int)] = []
        var from = cursor
        while true {
            let response = try await app.server.pull(PullRequest(replica: "bob-reader", cursor: from, limit: 1_000), tenant: "default", user: "bob")
            pages.append((response, try SyncJSON.encoder().encode(response).count))
            from = response.nextCursor
            if !response.hasMore { return pages }
        }
    }

    static func latest(of app: SharedReminders) async throws -> Int64 {
        try await app.server.pull(PullRequest(replica: "probe", cursor: 0, limit: 1), tenant: "default", user: "bob").nextCursor
    }

    @Test(arguments: StoreKind.allCases) func aRowMovedBackAndForthCarriesItsStateOnce(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            var app = try await SharedReminders(store: store, limits: SyncServerLimits(maximumPageBytes: Self.pageBytes))
            try await app.add("ana")
            try await app.add("bob")
            try await app.write("ana", """
                INSERT INTO remindersList(id, title) VALUES ('L1', 'Home'), ('L2', 'Work');
                INSERT INTO reminder(id, listID, title) VALUES ('r1', 'L1', '\(Self.bigTitle)');
                """)
            _ = try await app.sync("ana").synchronize()
            for list in ["L1", "L2"] { _ = try await app.sync("ana").share("remindersList", key: .text(list), with: "bob", role: .viewer) }
            try await app.syncAll(["bob"])
            let before = try await Self.latest(of: app)
            // Twenty moves, each its own transaction: one small push.
            for move in 0..<20 {
                try await app.write("ana", "UPDATE reminder SET listID = '\(move % 2 == 0 ? "L2" : "L1")' WHERE id = 'r1'")
            }
            _ = try await app.sync("ana").synchronize()

            let pages = try await Self.pages(of: app, after: before)
            let arrivals = pages.flatMap { $0.response.events ?? [] }.filter { $0.kind == .rowArrived }
            #expect(arrivals.count == 1, "the row's state travels once, not once per move")
            #expect(pages.map(\.bytes).reduce(0, +) < 3 * Self.bigTitle.utf8.count, "\(pages.map(\.bytes))")
            _ = try await app.sync("bob").synchronize()
            #expect(try await app.rows("bob", "reminder").map { $0[1] } == ["L1"], "bob's device ends where the row is")
        }
    }

    @Test(arguments: StoreKind.allCases) func rowsMovingInFillPagesNoLargerThanTheLimit(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            var app = try await SharedReminders(store: store, limits: SyncServerLimits(maximumPageBytes: Self.pageBytes))
            try await app.add("ana")
            try await app.add("bob")
            try await app.write("ana", "INSERT INTO remindersList(id, title) VALUES ('shared', 'Shared'), ('mine', 'Mine')")
            for index in 0..<10 {
                try await app.write("ana", "INSERT INTO reminder(id, listID, title) VALUES ('r\(index)', 'mine', '\(Self.bigTitle)')")
            }
            _ = try await app.sync("ana").synchronize()
            _ = try await app.sync("ana").share("remindersList", key: .text("shared"), with: "bob", role: .viewer)
            try await app.syncAll(["bob"])
            let before = try await Self.latest(of: app)
            // Ten rows of 10 kB moved into bob's list, one transaction each.
            for index in 0..<10 {
                try await app.write("ana", "UPDATE reminder SET listID = 'shared' WHERE id = 'r\(index)'")
            }
            _ = try await app.sync("ana").synchronize()

            let pages = try await Self.pages(of: app, after: before)
            #expect(pages.count >= 4, "ten states of 10 kB need four pages of 30 kB")
            for page in pages { #expect(page.bytes < Self.pageBytes + Self.bigTitle.utf8.count, "\(pages.map(\.bytes))") }
            let arrived = Set(pages.flatMap { $0.response.events ?? [] }.compactMap { $0.row?.key })
            #expect(arrived.count == 10, "every row arrives")
            _ = try await app.sync("bob").synchronize()
            #expect(try await app.rows("bob", "reminder").count == 10)
        }
    }
}
