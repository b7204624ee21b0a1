@testable import BoutiqueSync
import BoutiqueSQLite
import BoutiqueSyncServer
import Foundation
import Testing

/// What the session tells the status as it works, and what the status makes of it.
@MainActor @Suite struct SyncPhaseTests {
    @Test func theActivityShowsWhatMattersMost() {
        let board = SyncStatusBoard()
        board.begin(.pulling)
        #expect(board.status.activity == .pulling)
        board.begin(.pushing)
        #expect(board.status.activity == .pushing, "a push beside a pull shows")
        board.end(.pushing)
        #expect(board.status.activity == .pulling)
        board.end(.pulling)
        #expect(board.status.activity == .idle)
        board.begin(.bootstrapping)
        board.setProgress(BootstrapProgress(rowsDone: 10, totalRows: 40))
        #expect(board.status.activity == .bootstrapping(BootstrapProgress(rowsDone: 10, totalRows: 40)))
        board.setProblem(.offline(.syncUnavailable(reason: "no answer")))
        #expect(board.status.isOffline, "an outage shows over the work it interrupted")
        board.end(.bootstrapping)
        board.didSync(at: Date())
        #expect(board.status.activity == .idle && board.status.hasSynced, "a sync that went through clears the outage")
    }

    @Test func aFreshDeviceReportsItsPushBootstrapAndProgress() async throws {
        let server = try await makeServer()
        let writer = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        let writerSync = try await BoutiqueSync(database: writer, tables: ["note"], server: .inProcess(server))
        try await writer.write { conn in
            for index in 0..<50 { try conn.execute("INSERT INTO note(id, title) VALUES (?, 'x')", [.text("w\(index)")]) }
        }
        _ = try await writerSync.synchronize()
        let fresh = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        let sync = try await BoutiqueSync(database: fresh, tables: ["note"], server: .inProcess(server))
        let heard = Lock<[String]>([])
        await sync.session.setReporter(SyncSessionReporter(
            phase: { phase, started in heard.withLock { $0.append("\(phase) \(started ? "begins" : "ends")") } },
            progress: { progress in heard.withLock { $0.append("\(progress.rowsDone) of \(progress.totalRows ?? -1)") } },
            refusal: { _ in }))
        try await fresh.write { conn in try conn.execute("INSERT INTO note(id, title) VALUES ('mine', 'x')") }
        _ = try await sync.synchronize()
        #expect(heard.withLock { $0 } == [
            "pushing begins", "pushing ends", "bootstrapping begins", "51 of 51", "bootstrapping ends",
        ])
        await writer.close()
        await fresh.close()
    }
}
