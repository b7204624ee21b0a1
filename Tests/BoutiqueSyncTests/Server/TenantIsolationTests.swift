import BoutiqueSync
import BoutiqueSyncServer
import Foundation
import Synchronization
import Testing

/// One tenant's load never makes another tenant wait: reads do not wait for writes, and (PostgreSQL)
/// a tenant's queued writes do not hold the connections other tenants need.
@Suite struct TenantIsolationTests {
    /// A store transaction held open on purpose until ``open()``.
    final class Gate: Sendable {
        private let semaphore = DispatchSemaphore(value: 0)
        private let state = Mutex((entered: false, opened: false))

        /// Called inside a transaction's body: blocks its connection until the gate opens.
        func hold() {
            state.withLock { $0.entered = true }
            semaphore.wait()
        }

        var entered: Bool { state.withLock { $0.entered } }

        /// Lets the held transaction go (once).
        func open() {
            let first = state.withLock { state in
                defer { state.opened = true }
                return !state.opened
            }
            if first { semaphore.signal() }
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
            try await waitUntil(seconds: 20 * syncTimeoutScale, "the busy tenant's transaction holds") { gate.entered }
            let queued = (0..<5).map { _ in Task { try await store.transaction(tenant: "busy") { store in try store.latestSequence() } } }
            // Opens the gate after a generous while if the other tenant's requests are stuck behind it:
            // they then finish after the busy tenant, and the order below fails.
            let deadline = Task {
                try? await Task.sleep(for: .seconds(15 * syncTimeoutScale))
                gate.open()
            }
            let pulled = try await server.pull(PullRequest(replica: "calm-device", cursor: 0, limit: 10), tenant: "calm")
            #expect(pulled.outcome == .changes && pulled.nextCursor == 1)
            await finishes.note("calm pull")
            if kind == .postgreSQL {
                // SQLite has one writer for every tenant; PostgreSQL writes tenants side by side.
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
            let expected = kind == .postgreSQL ? ["calm pull", "calm push", "busy"] : ["calm pull", "busy"]
            #expect(await finishes.order == expected)
        }
    }
}
