@testable import BoutiqueSync
import BoutiqueSQLite
import BoutiqueSyncCore
import BoutiqueSyncServer
import Foundation
import Synchronization
import Testing

/// Garbage collection compacts a collaborative text on the server once every device has passed its
/// edits: the deleted characters go, the text and later merges stay; a device whose own edits wait
/// to be acknowledged holds it back, so that those edits still land.
@Suite struct CollaborativeTextCompactionTests {
    /// The server's text of note n1's body.
    static func serverText(_ server: SyncServer, tenant: String = "default") async throws -> (text: CollaborativeText, bytes: Int)? {
        let state = try await server.store.read(tenant: tenant) { store in try store.rowState(table: "note", key: .text("n1")) }
        guard let cell = state?.cells["body"], case .blob(let bytes) = cell.value else { return nil }
        return (try CollaborativeTextValue(cell.value).text(), bytes.count)
    }

    static let long = (0..<40).map { "Line \($0) of a long note, typed and then cut short.\n" }.joined()

    @Test(arguments: StoreKind.allCases) func aTextEveryDeviceHasPassedIsCompactedAndStillMerges(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let note = try await TextDevices.make(body: Self.long, store: store)
            let short = String(Self.long.prefix(120))
            try await note.write(0, "UPDATE note SET body = ? WHERE id = 'n1'", [.text(short)])
            try await note.settle()
            let before = try #require(try await Self.serverText(note.server))
            #expect(before.text.text == short && before.text.tombstoneCount == Self.long.unicodeScalars.count - short.unicodeScalars.count)

            let report = try await note.server.collectGarbage(tenant: "default")
            #expect(report.textsCompacted == 1, "\(report)")
            let after = try #require(try await Self.serverText(note.server))
            #expect(after.text.text == short && after.text.tombstoneCount == 0)
            // A text one device wrote: its metadata at most twice the text's size, once compacted.
            #expect(after.bytes <= 2 * short.utf8.count, "\(after.bytes) bytes for \(short.utf8.count) of text")
            #expect(after.bytes < before.bytes / 4, "\(after.bytes) bytes after, \(before.bytes) before")
            // A second round finds nothing more to do.
            #expect(try await note.server.collectGarbage(tenant: "default").textsCompacted == 0)

            // The devices kept their tombstones; edits on both sides merge with the compacted text.
            try await note.write(0, "UPDATE note SET body = 'Top line\n' || body WHERE id = 'n1'")
            try await note.write(1, "UPDATE note SET body = body || ' The end.' WHERE id = 'n1'")
            try await note.settle()
            let merged = DatabaseValue.text("Top line\n" + short + " The end.")
            #expect(try await note.body(0) == merged)
            #expect(try await note.body(1) == merged)
            #expect(try await Self.serverText(note.server)?.text.text == "Top line\n" + short + " The end.")

            // A new device bootstraps the compacted text and merges later edits with it.
            let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
            let sync = try await BoutiqueSync(database: database, tables: ["note"], server: .inProcess(note.server), options: TextDevices.options)
            _ = try await sync.synchronize()
            try await database.write { conn in try conn.execute("UPDATE note SET body = replace(body, 'Top line', 'First line') WHERE id = 'n1'") }
            try await note.write(1, "UPDATE note SET body = body || '!' WHERE id = 'n1'")
            _ = try await sync.synchronize()
            try await note.settle()
            _ = try await sync.synchronize()
            let last = DatabaseValue.text("First line\n" + short + " The end.!")
            #expect(try await note.body(0) == last)
            #expect(try await note.body(1) == last)
            #expect(try await database.read { conn in try conn.fetchOne("SELECT body FROM note WHERE id = 'n1'")?.values.first } == last)
            await database.close()
            await note.close()
        }
    }

    /// A device counts as past what it has applied, which its next pull says: a page sent to it may
    /// never have arrived.
    @Test func aDeviceThatHasNotAppliedTheDeletionHoldsCompactionBack() async throws {
        let note = try await TextDevices.make(body: Self.long)
        try await note.write(0, "UPDATE note SET body = ? WHERE id = 'n1'", [.text(String(Self.long.prefix(50)))])
        _ = try await note.syncs[0].synchronize()
        #expect(try await note.server.collectGarbage(tenant: "default").textsCompacted == 0, "device 1 has not pulled the deletion")
        _ = try await note.syncs[1].synchronize()
        #expect(try await note.server.collectGarbage(tenant: "default").textsCompacted == 0, "device 1's pull has not said it applied it")
        // Each device's next pull says it has applied the deletion (device 0 pushed it: its pull that
        // went past it started before it).
        _ = try await note.syncs[1].synchronize()
        _ = try await note.syncs[0].synchronize()
        #expect(try await note.server.collectGarbage(tenant: "default").textsCompacted == 1)
        await note.close()
    }

    static let fox = "The quick brown fox jumps over the lazy dog"

    /// Device 1's edit waits behind "unplaced" pushes while device 0 cuts the text's end; device 1's
    /// pulls say how far back its edit was made when `saying`, as a device that predates it does not.
    static func editWaitingBehindACut(
        saying: Bool
    ) async throws -> (SyncServer, [DatabaseActor], [BoutiqueSync], UnplacedPushesTransport) {
        let server = try await makeServer()
        var databases: [DatabaseActor] = []
        var syncs: [BoutiqueSync] = []
        let unplaced = UnplacedPushesTransport(.inProcess(server), saysHowFarItPassed: saying)
        for index in 0..<2 {
            let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
            databases.append(database)
            let transport: any SyncTransport = index == 0 ? InProcessTransport.inProcess(server) : unplaced
            syncs.append(try await BoutiqueSync(database: database, tables: ["note"], server: transport, options: TextDevices.options))
        }
        let original = fox
        try await databases[0].write { conn in try conn.execute("INSERT INTO note(id, title, body) VALUES ('n1', 'Fox', ?)", [.text(original)]) }
        for sync in syncs + syncs { _ = try await sync.synchronize() }

        // Device 1, unplaced, inserts before "lazy"; device 0 cuts " over the lazy dog".
        unplaced.refusing.store(true, ordering: .relaxed)
        try await databases[1].write { conn in try conn.execute("UPDATE note SET body = replace(body, 'lazy', 'very lazy') WHERE id = 'n1'") }
        await #expect(throws: SyncRefusal.self) { try await syncs[1].synchronize() }
        try await databases[0].write { conn in try conn.execute("UPDATE note SET body = 'The quick brown fox jumps' WHERE id = 'n1'") }
        _ = try await syncs[0].synchronize()
        // Device 1 pulls the cut, and pulls again (its pull says it applied the cut), its edit still waiting.
        await #expect(throws: SyncRefusal.self) { try await syncs[1].synchronize() }
        await #expect(throws: SyncRefusal.self) { try await syncs[1].synchronize() }
        let held = try #require(unplaced.lastPull.withLock { $0 })
        #expect(held.passedThrough.map { $0 < held.cursor } == true, "the pull says how far back the edit was made: \(held)")
        _ = try await syncs[0].synchronize()
        return (server, databases, syncs, unplaced)
    }

    /// A device whose pushes a server's rules cannot place keeps pulling; its text edit, made before
    /// another device cut the text's end, waits for the rules to be fixed. Compacting the cut
    /// characters meanwhile would leave the edit hanging on characters the server no longer has
    /// (refused, the edit lost): its pulls say how far back its edit was made, and nothing is compacted.
    @Test func anEditWaitingToBeAcknowledgedHoldsCompactionBackAndLands() async throws {
        let (server, databases, syncs, unplaced) = try await Self.editWaitingBehindACut(saying: true)
        let original = Self.fox

        #expect(try await server.collectGarbage(tenant: "default").textsCompacted == 0)
        #expect(try await Self.serverText(server)?.text.tombstoneCount == original.count - "The quick brown fox jumps".count)

        // The rules fixed: the edit lands, on characters the server still has, and nothing is refused.
        unplaced.refusing.store(false, ordering: .relaxed)
        for sync in syncs + syncs + syncs { _ = try await sync.synchronize() }
        #expect(await syncs[1].takeReportedLosses().isEmpty)
        var texts: [DatabaseValue?] = []
        for database in databases {
            texts.append(try await database.read { conn in try conn.fetchOne("SELECT body FROM note WHERE id = 'n1'")?.values.first })
        }
        #expect(texts == [.text("The quick brown fox jumpsvery "), .text("The quick brown fox jumpsvery ")], "\(texts)")
        let passed = try #require(unplaced.lastPull.withLock { $0 })
        #expect(passed.passedThrough == passed.cursor, "acknowledged: nothing holds the device back any more: \(passed)")
        // Now everyone has passed it all: the cut characters go.
        #expect(try await server.collectGarbage(tenant: "default").textsCompacted == 1)
        #expect(try await Self.serverText(server)?.text.text == "The quick brown fox jumpsvery ")
        for database in databases { await database.close() }
    }
}

extension CollaborativeTextCompactionTests {
    /// The same, from a device that does not say how far back its edit was made: the server compacts
    /// the cut characters its edit names. The edit is refused and reported with the value written, not
    /// lost without a word, and the device takes the server's text.
    @Test func anEditOfCompactedTextIsRefusedAndReported() async throws {
        let (server, databases, syncs, unplaced) = try await Self.editWaitingBehindACut(saying: false)
        _ = await syncs[1].takeReportedRefusals()
        #expect(try await server.collectGarbage(tenant: "default").textsCompacted == 1)
        unplaced.refusing.store(false, ordering: .relaxed)
        for sync in syncs + syncs { _ = try await sync.synchronize() }
        let refusals = await syncs[1].takeReportedRefusals()
        #expect(refusals.map(\.key) == [.text("n1")], "\(refusals.map(\.message))")
        #expect(refusals.first?.message.contains("compacted") == true, "\(refusals.map(\.message))")
        #expect(refusals.first?.values["body"] == .text("The quick brown fox jumps over the very lazy dog"))
        for (index, database) in databases.enumerated() {
            let body = try await database.read { conn in try conn.fetchOne("SELECT body FROM note WHERE id = 'n1'")?.values.first }
            #expect(body == .text("The quick brown fox jumps"), "device \(index): \(String(describing: body))")
        }
        for database in databases { await database.close() }
    }
}

extension CollaborativeTextCompactionTests {
    /// An unacknowledged text edit holds the server's collection back to where the device had pulled
    /// when it made it, but no further than where it had pulled thirty days ago: an edit refused for
    /// good while pulls go on must not keep the tenant's log growing.
    @Test func anEditHoldsCollectionBackThirtyDaysAtMost() async throws {
        let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        _ = try await BoutiqueSync(database: database, tables: ["note"], server: .inProcess(try await makeServer()), options: TextDevices.options)
        let day: UInt64 = 86_400_000, start: UInt64 = 1_800_000_000_000
        func base(now days: UInt64, acknowledged: Int64 = 0) async throws -> Int64? {
            try await database.read { conn in
                try CollaborativeTextCapture.editBase(server: "s", acknowledged: acknowledged, now: start + days * day, SQLRunner(conn))
            }
        }
        try await database.write { conn in
            for (days, cursor) in [(UInt64(0), 10), (20, 50), (40, 90)] {
                try conn.execute(
                    "INSERT INTO boutique_sync_pull_mark(server, clock, cursor) VALUES ('s', ?, ?)",
                    [.integer(Int64(bitPattern: HybridTimestamp(milliseconds: start + days * day).rawValue)), .integer(Int64(cursor))])
            }
            try conn.execute("INSERT INTO boutique_sync_text_ops(txn, tbl, key, col, operations) VALUES (5, 'note', 'n1', 'body', x'00')")
        }
        #expect(try await base(now: 45) == 10, "the oldest mark: thirty days back is before the next one")
        #expect(try await base(now: 55) == 50, "where the device had pulled thirty days ago")
        #expect(try await base(now: 75) == nil, "thirty days after the last move: the cursor itself")
        #expect(try await base(now: 45, acknowledged: 5) == nil, "nothing waits")
        await database.close()
    }
}

/// A transport to a server in process whose pushes carrying transactions are refused while
/// ``refusing`` is set, as a server whose rules cannot place them refuses them
/// (``SyncRefusal/Reason/rulesMismatch``): the device's pulls go on. It keeps the last pull's
/// ``PullRequest/passedThrough``, and the cursor it pulled from, and can leave the first out.
final class UnplacedPushesTransport: SyncTransport {
    let base: InProcessTransport
    let refusing = Atomic<Bool>(false)
    let lastPull = Lock<(cursor: Int64, passedThrough: Int64?)?>(nil)
    /// Whether pulls keep ``PullRequest/passedThrough``; without it, as from a device that predates it.
    let saysHowFarItPassed: Bool

    init(_ base: InProcessTransport, saysHowFarItPassed: Bool = true) {
        self.base = base
        self.saysHowFarItPassed = saysHowFarItPassed
    }

    var serverIdentifier: String { base.serverIdentifier }

    func push(_ request: PushRequest) async throws -> PushResponse {
        if refusing.load(ordering: .relaxed), !request.transactions.isEmpty {
            throw SyncRefusal(reason: .rulesMismatch, message: "the server's sync rules do not match the device's tables")
        }
        return try await base.push(request)
    }

    func pull(_ request: PullRequest) async throws -> PullResponse {
        lastPull.withLock { $0 = (request.cursor, request.passedThrough) }
        var request = request
        if !saysHowFarItPassed { request.passedThrough = nil }
        return try await base.pull(request)
    }

    func snapshot(_ request: SnapshotRequest) async throws -> SnapshotResponse { try await base.snapshot(request) }

    func membership(_ request: MembershipRequest, action: MembershipAction) async throws -> MembershipResponse {
        try await base.membership(request, action: action)
    }
}
