import BoutiqueSync
import Foundation

/// A transport that counts what moves through it, for `boutique sync`'s progress and summary.
struct CountingTransport: SyncTransport {
    let base: HTTPSyncTransport
    let progress: SyncProgress

    var serverIdentifier: String { base.serverIdentifier }

    func push(_ request: PushRequest) async throws -> PushResponse {
        let response = try await base.push(request)
        if let refusals = response.refusals, !refusals.isEmpty { progress.recordRefusals(refusals) }
        if response.outcome == .accepted {
            let changes = request.transactions.filter { $0.id <= response.appliedThrough }.reduce(0) { $0 + $1.changes.count }
            progress.record(.push, changes: changes, bytes: base.traffic.sent + base.traffic.received)
        }
        return response
    }

    func pull(_ request: PullRequest) async throws -> PullResponse {
        let response = try await base.pull(request)
        progress.record(.pull, changes: response.changes.count, bytes: base.traffic.sent + base.traffic.received)
        return response
    }

    func membership(_ request: MembershipRequest, action: MembershipAction) async throws -> MembershipResponse {
        try await base.membership(request, action: action)
    }

    func snapshot(_ request: SnapshotRequest) async throws -> SnapshotResponse {
        let before = base.traffic.sent + base.traffic.received
        let response = try await base.snapshot(request)
        let after = base.traffic.sent + base.traffic.received
        if let total = response.totalRows { progress.setBootstrapTotal(total) }
        progress.addBootstrapBytes(after - before)
        progress.record(.bootstrap, changes: response.rows.count, bytes: after)
        return response
    }
}

/// What `boutique sync` shows while it works: on a terminal one line rewritten in place (changes and
/// bytes so far); otherwise a plain line per request that moved something, for logs and pipes.
final class SyncProgress: Sendable {
    enum Phase: String, Sendable {
        case push = "pushed", pull = "pulled", bootstrap = "bootstrapped"

        /// What the phase moves: row changes, or whole rows of a snapshot.
        var noun: String { self == .bootstrap ? "row" : "change" }
    }

    private struct Totals {
        var changes: [Phase: Int] = [:]
        var bytes = 0
        var lineShown = false
        /// Snapshot rows a bootstrap resumed here had received before (by an earlier run).
        var bootstrapBase = 0
        /// How many rows the server holds, once a snapshot page said.
        var bootstrapTotal: Int?
        /// The bytes snapshot pages moved, requests and answers (retries included).
        var bootstrapBytes = 0
        /// The pushed transactions the server refused, by transaction id (a push sent again after a
        /// lost answer is refused again).
        var refusals: [Int64: PushRefusal] = [:]
    }

    private let totals = Lock(Totals())
    private let onTerminal = isatty(STDOUT_FILENO) == 1

    func record(_ phase: Phase, changes: Int, bytes: Int) {
        guard changes > 0 else { return }
        let line = totals.withLock { totals -> String in
            totals.changes[phase, default: 0] += changes
            totals.bytes = bytes
            totals.lineShown = true
            if phase == .bootstrap {
                // Rows done of the total: what a long bootstrap is waited on for.
                let done = totals.bootstrapBase + totals.changes[phase, default: 0]
                let of = totals.bootstrapTotal.map { " of \($0)" } ?? ""
                return "bootstrapping: \(done)\(of) rows (\(Self.bytes(bytes)) so far)"
            }
            if onTerminal {
                return "\(phase.rawValue) \(Plural.count(totals.changes[phase, default: 0], phase.noun)) so far, \(Self.bytes(bytes))"
            }
            return "\(phase.rawValue) \(Plural.count(changes, phase.noun)) (\(Self.bytes(bytes)) so far)"
        }
        if onTerminal {
            FileHandle.standardOutput.write(Data(("\r\u{1B}[K" + line).utf8))
        } else {
            Output.line(line)
        }
    }

    /// Notes the snapshot rows an earlier run of a bootstrap received, which this one resumes after.
    func resumeBootstrap(after rows: Int) { totals.withLock { $0.bootstrapBase = rows } }

    /// Notes how many rows the server holds.
    func setBootstrapTotal(_ total: Int) { totals.withLock { $0.bootstrapTotal = total } }

    /// Counts the bytes of a snapshot page's request and answer.
    func addBootstrapBytes(_ bytes: Int) { totals.withLock { $0.bootstrapBytes += bytes } }

    /// What this run's bootstrap moved, for the summary line: `nil` when it moved no rows.
    ///
    ///     bootstrapped 160000 rows in 2.9 s: 55172 rows/s, 16480000 bytes on the wire (103 a row)
    func bootstrapSummary(seconds: Double) -> String? {
        let (rows, bytes) = totals.withLock { ($0.changes[.bootstrap, default: 0], $0.bootstrapBytes) }
        guard rows > 0 else { return nil }
        let rate = seconds > 0 ? Int((Double(rows) / seconds).rounded()) : rows
        return String(
            format: "bootstrapped %@ in %.1f s: %d rows/s, %d bytes on the wire (%d a row)", Plural.count(rows, "row"), seconds, rate,
            bytes, Int((Double(bytes) / Double(rows)).rounded()))
    }

    /// Ends the in-place line on a terminal.
    func finishLine() {
        let shown = totals.withLock { totals -> Bool in
            defer { totals.lineShown = false }
            return totals.lineShown
        }
        if onTerminal, shown { FileHandle.standardOutput.write(Data("\n".utf8)) }
    }

    /// Notes the transactions a push's answer refused.
    func recordRefusals(_ refusals: [PushRefusal]) {
        totals.withLock { totals in for refusal in refusals { totals.refusals[refusal.transactionID] = refusal } }
    }

    /// The pushed transactions refused so far, oldest first.
    var refusals: [PushRefusal] { totals.withLock { $0.refusals.values.sorted { $0.transactionID < $1.transactionID } } }

    /// Changes moved in `phase` so far.
    func changes(_ phase: Phase) -> Int { totals.withLock { $0.changes[phase, default: 0] } }

    static func bytes(_ count: Int) -> String {
        switch count {
        case ..<1_024: return "\(count) B"
        case ..<(1_024 * 1_024): return String(format: "%.1f KB", Double(count) / 1_024)
        default: return String(format: "%.1f MB", Double(count) / 1_048_576)
        }
    }
}
