@testable import BoutiqueDB
import Testing

/// The pool under the readers: lends each resource to one caller at a time, in the order they came.
@Suite struct LeasePoolTests {
    final class Resource: Sendable {
        let number: Int
        init(_ number: Int) { self.number = number }
    }

    private func pool(capacity: Int) -> LeasePool<Resource> {
        let made = Counter()
        return LeasePool(capacity: capacity) { Resource(made.add(1)) }
    }

    @Test func tryAcquireLendsAtOnceUpToTheCapacityAndThenSaysNo() async throws {
        let pool = pool(capacity: 2)
        let first = try #require(pool.tryAcquire())
        let second = try #require(pool.tryAcquire())
        #expect(first.number != second.number)
        #expect(pool.tryAcquire() == nil)
        pool.release(first)
        // The resource given back is lent again; none is made beyond the capacity.
        let again = try #require(pool.tryAcquire())
        #expect(again === first)
        pool.release(again)
        pool.release(second)
    }

    /// A caller that may not wait does not jump the line of callers that do: the resource given back
    /// goes to the first in line, not to whoever asks next.
    @Test func tryAcquireDoesNotOvertakeACallerWaitingInLine() async throws {
        let pool = pool(capacity: 1)
        let held = try #require(pool.tryAcquire())
        let waiter = Task { try await pool.acquire() }
        // Wait until the waiter is in line: then the pool has nothing to lend without waiting.
        while pool.waitingCount == 0 { await Task.yield() }
        pool.release(held)
        #expect(pool.tryAcquire() == nil)
        let handedOver = try await waiter.value
        #expect(handedOver === held)
        pool.release(handedOver)
        #expect(pool.tryAcquire() === held)
    }

    @Test func aClosedPoolLendsNothing() async throws {
        let pool = pool(capacity: 1)
        await pool.close { _ in }
        #expect(pool.tryAcquire() == nil)
    }
}
