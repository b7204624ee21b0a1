import BoutiqueSQLite
import BoutiqueSync
import BoutiqueSyncServer
import Foundation
import Testing

/// A refused transaction is answered with the server's version of the rows it touched: a push of many
/// small refused edits of large rows is answered a page's worth at a time (the rest is handled at the
/// device's next push), not with every row's state at once.
@Suite struct RefusalBytesTests {
    /// A transport that keeps the size of each push answer, as sent over HTTP (JSON).
    final class MeasuringTransport: SyncTransport {
        let base: InProcessTransport
        let answers = Lock<[Int]>([])

        init(_ base: InProcessTransport) { self.base = base }

        var serverIdentifier: String { base.serverIdentifier }

        func push(_ request: PushRequest) async throws -> PushResponse {
            let response = try await base.push(request)
            let bytes = try SyncJSON.encoder().encode(response).count
            answers.withLock { $0.append(bytes) }
            return response
        }

        func pull(_ request: PullRequest) async throws -> PullResponse { try await base.pull(request) }
        func snapshot(_ request: SnapshotRequest) async throws -> SnapshotResponse { try await base.snapshot(request) }
        func membership(_ request: MembershipRequest, action: MembershipAction) async throws -> MembershipResponse {
            try await base.membership(request, action: action)
        }
    }

    static let pageBytes = 30_000
    static let bigTitle = String(repeating: "y", count: 10_000)

    /// Ana's list of ten 10 kB reminders, shared with bob as a viewer, whose push answers are measured
    /// from here on.
    static func tenLargeRowsSharedWithAViewer(_ store: any SyncStore) async throws -> (SharedReminders, MeasuringTransport) {
        var app = try await SharedReminders(store: store, limits: SyncServerLimits(maximumPageBytes: pageBytes))
        try await app.add("ana")
        let measuring = MeasuringTransport(.inProcess(app.server, user: "bob"))
        try await app.add("bob", through: measuring)
        try await app.write("ana", "INSERT INTO remindersList(id, title) VALUES ('L1', 'Home')")
        for index in 0..<10 {
            try await app.write("ana", "INSERT INTO reminder(id, listID, title) VALUES ('r\(index)', 'L1', '\(bigTitle)')")
        }
        _ = try await app.sync("ana").synchronize()
        _ = try await app.sync("ana").share("remindersList", key: .text("L1"), with: "bob", role: .viewer)
        _ = try await app.sync("bob").synchronize()
        #expect(try await app.rows("bob", "reminder").count == 10)
        measuring.answers.withLock { $0.removeAll() }
        return (app, measuring)
    }

    @Test(arguments: StoreKind.allCases) func aViewersManyRefusedEditsAreAnsweredAPageAtATime(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let (app, measuring) = try await Self.tenLargeRowsSharedWithAViewer(store)

            // Ten small edits, each its own transaction, none of which a viewer may make.
            let refusals = Lock<[SyncRefusal]>([])
            let stream = app.sync("bob").refusals
            let listening = Task { for await refusal in stream { refusals.withLock { $0.append(refusal) } } }
            for index in 0..<10 {
                try await app.write("bob", "UPDATE reminder SET title = 'mine' WHERE id = 'r\(index)'")
            }
            _ = try await app.sync("bob").synchronize()

            let answers = measuring.answers.withLock { $0 }
            #expect(answers.count >= 4, "ten states of 10 kB take four answers of 30 kB: \(answers)")
            for bytes in answers { #expect(bytes < Self.pageBytes + Self.bigTitle.utf8.count, "\(answers)") }
            #expect(try await app.rows("bob", "reminder").allSatisfy { $0[2] == Self.bigTitle }, "every edit was put back")
            #expect(await app.sync("bob").status.pendingCount == 0)
            var waited = 0
            while refusals.withLock({ $0.count }) < 10, waited < 6_000 {
                try await Task.sleep(for: .milliseconds(10))
                waited += 1
            }
            #expect(Set(refusals.withLock { $0 }.compactMap(\.key)).count == 10, "each refusal reported once")
            listening.cancel()
        }
    }

    /// One refused transaction touching more large rows than an answer carries is answered without
    /// them: the device takes the server's version from a snapshot, and the refusal is told once.
    @Test(arguments: StoreKind.allCases) func oneRefusedTransactionOfManyLargeRowsIsAnsweredWithinAPage(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let (app, measuring) = try await Self.tenLargeRowsSharedWithAViewer(store)

            // One transaction editing all ten 10 kB rows: their states are more than a 30 kB answer.
            let refusals = Lock<[SyncRefusal]>([])
            let stream = app.sync("bob").refusals
            let listening = Task { for await refusal in stream { refusals.withLock { $0.append(refusal) } } }
            try await app.write("bob", "UPDATE reminder SET title = 'mine'")
            _ = try await app.sync("bob").synchronize()

            let answers = measuring.answers.withLock { $0 }
            #expect(!answers.isEmpty)
            for bytes in answers { #expect(bytes < Self.pageBytes, "\(answers)") }
            #expect(try await app.rows("bob", "reminder").count == 10)
            #expect(try await app.rows("bob", "reminder").allSatisfy { $0[2] == Self.bigTitle }, "every edit was put back")
            #expect(await app.sync("bob").status.pendingCount == 0)
            var waited = 0
            while refusals.withLock({ $0.isEmpty }), waited < 6_000 {
                try await Task.sleep(for: .milliseconds(10))
                waited += 1
            }
            #expect(refusals.withLock { $0.count } == 1, "the transaction's refusal is told once")
            listening.cancel()
        }
    }
}
