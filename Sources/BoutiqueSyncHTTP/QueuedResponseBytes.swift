import BoutiqueSQLite

/// The bytes of the answers queued on connections and not yet sent, server-wide, against
/// ``SyncHTTPOptions/maximumQueuedResponseBytes``.
///
/// An answer stays in memory, whole, until its client has read it (or the response deadline closes
/// the connection): a client that asks for a page of changes and stops reading holds the page. Many
/// such clients would hold the server's memory; here their answers together take at most the budget.
/// An answer that would overdraw it is replaced with a 503 and `Retry-After` when its request changed
/// nothing (a pull, a snapshot: see ``HTTPResponse/repeatable``), and queued all the same otherwise (a
/// push that committed is told so). So is an answer of at most ``alwaysQueued`` bytes — a long poll's
/// few changes, a refusal — so that a spent budget does not stop devices that are only keeping up: those
/// take at most that much a connection.
final class QueuedResponseBytes: Sendable {
    /// The budget.
    let limit: Int
    /// The largest answer queued whatever the budget.
    static let alwaysQueued = 64 << 10
    private let queued = Lock(0)

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// The bytes queued now.
    var current: Int { queued.withLock { $0 } }

    /// Takes `bytes` for an answer about to be queued and says whether it was taken: always when the
    /// answer must be sent (`mayRefuse` false), is small, or is the only one; otherwise when it fits.
    func take(_ bytes: Int, mayRefuse: Bool) -> Bool {
        queued.withLock { queued in
            let (total, overflows) = queued.addingReportingOverflow(bytes)
            let fits = !overflows && total <= limit
            guard !mayRefuse || bytes <= Self.alwaysQueued || queued == 0 || fits else { return false }
            queued = overflows ? .max : total
            return true
        }
    }

    /// Gives back the bytes of an answer sent, or dropped with its connection.
    func give(_ bytes: Int) {
        queued.withLock { $0 = max(0, $0 - bytes) }
    }
}

