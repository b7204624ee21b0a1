import BoutiqueSQLite
import BoutiqueSync
@testable import BoutiqueSyncServer
import Foundation
import Testing

/// One tenant's load never makes another tenant wait: reads do not wait for writes, and (PostgreSQL)
/// a tenant's queued writes do not hold the connections other tenants need.
@Suite struct TenantIsolationTests {
    /// Store transactions held open on purpose until ``open()``.
    final class Gate: Sendable {
        private let semaphore = DispatchSemaphore(value: 0)
        private let state = Lock((held: 0, opened: false))

        /// Called inside a transaction's body: blocks its connection until the gate opens.
        func hold() {
            let opened = state.withLock { state in
                state.held += 1
                return state.opened
            }
            if !opened { semaphore.wait() }
        }

        /// Whether a transaction is held.
        var entered: Bool { heldCount > 0 }

        /// How many transactions came to the gate.
        var heldCount: Int { state.withLock { $0.held } }

        /// Lets every held transaction go, and those that come later pass.
        func open() {
            let waiting = state.withLock { state in
                defer { state.opened = true }
                return state.opened ? 0 : state.held
            }
            for _ in 0..<waiting { semaphore.signal() }
        }
    }

    /// What finished, in order.
    actor Finishes {
        private(set) var order: [String] = []
        func note(_ name: String) { order.append(name) }
    }

    @Test(arguments: StoreKind.allCases)
    func anotherTenantsRequestsFinishWhileATenantsTransactionsAreHeld(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let server = SyncStoreContractTests.server(store)
            _ = try await SyncStoreContractTests.push(server, [SyncStoreContractTests.transaction(1)], replica: "calm-device", tenant: "calm")
            let gate = Gate()
            let finishes = Finishes()
            // The busy tenant: one transaction held (the SQLite writer, or the tenant's lock on a
            // PostgreSQL connection), and more of its transactions than the pool has connections queued
            // behind it.
            let held = Task {
                try await store.transaction(tenant: "busy") { _ in gate.hold() }
                await finishes.note("busy")
            }
            try await waitUntil("the busy tenant's transaction holds") { gate.entered }
            let queued = (0..<5).map { _ in Task { try await store.transaction(tenant: "busy") { store in try store.latestSequence() } } }
            // Opens the gate after a generous while if the other tenant's requests are stuck behind it:
            // they then finish after the busy tenant, and the order below fails.
            let deadline = Task {
                try? await Task.sleep(for: .seconds(max(15 * syncTimeoutScale, 180)))
                gate.open()
            }
            let pulled = try await server.pull(PullRequest(replica: "calm-device", cursor: 0, limit: 10), tenant: "calm")
            #expect(pulled.outcome == .changes && pulled.nextCursor == 1)
            await finishes.note("calm pull")
            if kind.writesTenantsSideBySide {
                // The one-file SQLite store has one writer for every tenant; PostgreSQL, and a file per
                // tenant, write tenants side by side.
                let pushed = try await SyncStoreContractTests.push(
                    server, [SyncStoreContractTests.transaction(2)], replica: "calm-device", tenant: "calm", base: 1,
                    digest: pulled.replicaDigest)
                #expect(pushed.outcome == .accepted, "\(pushed.reason ?? "")")
                await finishes.note("calm push")
            }
            gate.open()
            try await held.value
            for task in queued { _ = try await task.value }
            deadline.cancel()
            let expected = kind.writesTenantsSideBySide ? ["calm pull", "calm push", "busy"] : ["calm pull", "busy"]
            #expect(await finishes.order == expected)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func anotherTenantsPullFindsAConnectionWhileATenantsPullsHoldTheirs(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let server = SyncStoreContractTests.server(store)
            _ = try await SyncStoreContractTests.push(server, [SyncStoreContractTests.transaction(1)], replica: "calm-device", tenant: "calm")
            // The busy tenant has data too: a store with a file per tenant reads it in that file.
            _ = try await SyncStoreContractTests.push(server, [SyncStoreContractTests.transaction(1)], replica: "busy-device", tenant: "busy")
            let gate = Gate()
            let finishes = Finishes()
            // Twice as many held reads as either store has connections for them by default: without a
            // share per tenant, they would take every reader (SQLite) or pooled connection (PostgreSQL).
            let busy = (0..<16).map { _ in
                Task {
                    try await store.read(tenant: "busy") { _ in gate.hold() }
                    await finishes.note("busy")
                }
            }
            try await waitUntil("the busy tenant's reads hold connections") { gate.heldCount >= 2 }
            // Every read the store lets the busy tenant start gets to the gate.
            try await Task.sleep(for: .milliseconds(200))
            let deadline = Task {
                try? await Task.sleep(for: .seconds(max(15 * syncTimeoutScale, 180)))
                gate.open()
            }
            let pulled = try await server.pull(PullRequest(replica: "calm-device", cursor: 0, limit: 10), tenant: "calm")
            #expect(pulled.outcome == .changes && pulled.nextCursor == 1)
            await finishes.note("calm pull")
            gate.open()
            for task in busy { try await task.value }
            deadline.cancel()
            #expect(await finishes.order.first == "calm pull")
            #expect(await finishes.order.count == 17)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aTenantsQueuedPushesDoNotGoAheadOfAnotherTenantsPush(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let server = SyncStoreContractTests.server(store)
            let gate = Gate()
            let finishes = Finishes()
            let held = Task {
                try await store.transaction(tenant: "busy") { _ in gate.hold() }
                await finishes.note("busy")
            }
            try await waitUntil("the busy tenant's transaction holds") { gate.entered }
            // Four more of the busy tenant's transactions wait (on SQLite, for the one writer).
            let queued = (0..<4).map { _ in
                Task {
                    _ = try await store.transaction(tenant: "busy") { store in try store.latestSequence() }
                    await finishes.note("busy")
                }
            }
            // On the one-file store they wait for the busy tenant's one turn; elsewhere they may run.
            let oneFile = store as? SQLiteSyncStore
            if let oneFile {
                try await waitUntil("the busy tenant's four transactions wait their turn") { oneFile.writeTurns(of: "busy").waiting == 4 }
            }
            let calm = Task {
                let pushed = try await SyncStoreContractTests.push(
                    server, [SyncStoreContractTests.transaction(1)], replica: "calm-device", tenant: "calm")
                await finishes.note("calm push")
                return pushed.outcome
            }
            // The calm push is in line before the gate opens: on the one-file store it holds its tenant's
            // turn, and is then queued on the writer at once; elsewhere it has its own writer and ends.
            try await waitUntil("the calm push is in the writer's line or done") {
                if await finishes.order.contains("calm push") { return true }
                return oneFile?.writeTurns(of: "calm").held == 1
            }
            try await Task.sleep(for: .milliseconds(50))
            gate.open()
            // The calm push is awaited first: awaiting a task raises its priority, which would let
            // the busy tenant's awaited transactions go ahead of it on the writer.
            #expect(try await calm.value == .accepted)
            try await held.value
            for task in queued { try await task.value }
            // At most one of the busy tenant's waiting transactions may go first: the one that took the
            // tenant's turn as the held one finished.
            let order = await finishes.order
            let calmPosition = try #require(order.firstIndex(of: "calm push"))
            #expect(calmPosition <= 2, "\(order)")
            #expect(order.count == 6)
        }
    }
}
