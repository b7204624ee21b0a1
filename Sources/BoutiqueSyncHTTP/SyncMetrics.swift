import BoutiqueSQLite
import Foundation
import Synchronization

/// What a ``SyncHTTPServer`` counts as it serves, written in Prometheus' text exposition format by its
/// metrics listener (``SyncHTTPServer/serveMetrics(port:)``, where the metrics are listed).
///
/// ```swift
/// let metricsURL = try http.serveMetrics(port: 9464)   // http://127.0.0.1:9464/metrics
/// ```
///
/// | Metric | Kind | Labels |
/// |---|---|---|
/// | `boutique_http_requests_total` | counter | `endpoint`, `status` |
/// | `boutique_http_request_duration_seconds` | histogram | `endpoint` |
/// | `boutique_pushed_changes_total` | counter | |
/// | `boutique_pulled_changes_total` | counter | |
/// | `boutique_refusals_total` | counter | `reason` (the error body's code: `unauthorized`, `forbidden`, …) |
/// | `boutique_long_polls_waiting` | gauge | |
/// | `boutique_connections_open` | gauge | |
/// | `boutique_tenants_active` | gauge (tenants that made a request in the last 10 minutes; ``ActiveTenants`` keeps at most 100,000) | |
/// | `boutique_store_errors_total` | counter | |
/// | `boutique_log_entries` | gauge (read at most once a minute: ``/BoutiqueSyncServer/SyncStore/logEntryCount()``) | |
/// | `boutique_gc_removed_total` | counter | `kind` (`log`, `tombstones`) |
///
/// `endpoint` is one of `push`, `pull`, `snapshot`, `share`, `unshare`, `members`, `health`, `healthz`,
/// `readyz` and `other`. No label holds a tenant, a user or a token. Counting a request takes one lock
/// and no allocation once its (endpoint, status) pair was seen.
final class SyncMetrics: Sendable {
    /// The endpoints requests are counted under.
    enum Endpoint: Int, CaseIterable {
        case push, pull, snapshot, share, unshare, members, health, healthz, readyz, other

        private static let labels = ["push", "pull", "snapshot", "share", "unshare", "members", "health", "healthz", "readyz", "other"]

        var label: String { Self.labels[rawValue] }

        /// The endpoint of `path`, compared with literals: a request's path is counted, not parsed
        /// again (no allocation).
        init(path: String) {
            switch path {
            case "/healthz": self = .healthz
            case "/readyz": self = .readyz
            case "/v1/health": self = .health
            case _ where !path.hasPrefix("/v1/"): self = .other
            case _ where path.hasSuffix("/push"): self = .push
            case _ where path.hasSuffix("/pull"): self = .pull
            case _ where path.hasSuffix("/snapshot"): self = .snapshot
            case _ where path.hasSuffix("/unshare"): self = .unshare
            case _ where path.hasSuffix("/share"): self = .share
            case _ where path.hasSuffix("/members"): self = .members
            default: self = .other
            }
        }
    }

    /// The histogram's upper bounds, in seconds: from a cached read to a long poll's wait.
    static let bounds: [Double] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60]
    /// A tenant counts as active this long after its last request.
    static let activeWindow: Duration = .seconds(600)
    /// The least time between two reads of the log's size.
    static let logReadInterval: Duration = .seconds(60)

    private struct Requests {
        /// Requests by `endpoint * 1000 + status`.
        var answered: [Int: Int] = [:]
        /// Per endpoint, ``SyncMetrics/bounds`` buckets then +Inf.
        var buckets = [Int](repeating: 0, count: Endpoint.allCases.count * (SyncMetrics.bounds.count + 1))
        var seconds = [Double](repeating: 0, count: Endpoint.allCases.count)
        var refusals: [String: Int] = [:]
    }

    private let requests = Lock(Requests())
    private let tenants = Lock(ActiveTenants(window: SyncMetrics.activeWindow))
    private let logEntries = Lock<(count: Int?, readAt: ContinuousClock.Instant?)>((nil, nil))
    private let pushed = Atomic<Int>(0)
    private let pulled = Atomic<Int>(0)
    private let longPolls = Atomic<Int>(0)
    private let storeErrors = Atomic<Int>(0)
    private let logRemoved = Atomic<Int>(0)
    private let tombstonesRemoved = Atomic<Int>(0)

    init() {}

    // MARK: Counting

    func answered(path: String, status: Int, duration: Duration, refusal code: String?) {
        let endpoint = Endpoint(path: path)
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        let bucket = Self.bounds.firstIndex { seconds <= $0 } ?? Self.bounds.count
        requests.withLock { state in
            state.answered[endpoint.rawValue * 1000 + status, default: 0] += 1
            state.buckets[endpoint.rawValue * (Self.bounds.count + 1) + bucket] += 1
            state.seconds[endpoint.rawValue] += seconds
            if let code { state.refusals[code, default: 0] += 1 }
        }
    }

    func pushed(changes: Int) { pushed.add(changes, ordering: .relaxed) }
    func pulled(changes: Int) { pulled.add(changes, ordering: .relaxed) }
    func longPollBegan() { longPolls.add(1, ordering: .relaxed) }
    func longPollEnded() { longPolls.subtract(1, ordering: .relaxed) }
    func storeFailed() { storeErrors.add(1, ordering: .relaxed) }

    func sawTenant(_ tenant: String) {
        let now = ContinuousClock.now
        tenants.withLock { $0.saw(tenant, at: now) }
    }

    /// Counts what a garbage collection removed (``/BoutiqueSyncServer/SyncHousekeeping/Event/collected(tenant:previousHorizon:report:)``).
    func collected(logEntries: Int, tombstones: Int) {
        logRemoved.add(max(0, logEntries), ordering: .relaxed)
        tombstonesRemoved.add(max(0, tombstones), ordering: .relaxed)
    }

    /// The log's size as last read, read again when that was over a minute ago.
    func logEntryCount(reading read: () async throws -> Int) async -> Int? {
        let now = ContinuousClock.now
        let due = logEntries.withLock { state -> Bool in
            guard state.readAt.map({ now - $0 >= Self.logReadInterval }) ?? true else { return false }
            state.readAt = now
            return true
        }
        if due, let count = try? await read() { logEntries.withLock { $0.count = count } }
        return logEntries.withLock { $0.count }
    }

    // MARK: Exposition

    /// The metrics in Prometheus' text format (version 0.0.4).
    func exposition(connectionsOpen: Int, logEntries: Int?) -> String {
        let snapshot = requests.withLock { $0 }
        let now = ContinuousClock.now
        let active = tenants.withLock { $0.count(at: now) }
        var out = ""
        func family(_ name: String, _ kind: String, _ help: String) { out += "# HELP \(name) \(help)\n# TYPE \(name) \(kind)\n" }
        /// A metric of one unlabelled value.
        func single(_ name: String, _ kind: String, _ help: String, _ value: some CustomStringConvertible) {
            family(name, kind, help)
            out += "\(name) \(value)\n"
        }
        func number(_ value: Double) -> String { value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value) }

        family("boutique_http_requests_total", "counter", "HTTP requests answered, by endpoint and status.")
        for (key, count) in snapshot.answered.sorted(by: { $0.key < $1.key }) {
            let endpoint = Endpoint(rawValue: key / 1000)?.label ?? "other"
            out += "boutique_http_requests_total{endpoint=\"\(endpoint)\",status=\"\(key % 1000)\"} \(count)\n"
        }
        family("boutique_http_request_duration_seconds", "histogram", "Time from a request's arrival to its answer, by endpoint.")
        for endpoint in Endpoint.allCases {
            let first = endpoint.rawValue * (Self.bounds.count + 1)
            let counts = snapshot.buckets[first..<first + Self.bounds.count + 1]
            let total = counts.reduce(0, +)
            guard total > 0 else { continue }
            var cumulative = 0
            for (index, count) in counts.enumerated() {
                cumulative += count
                let bound = index < Self.bounds.count ? number(Self.bounds[index]) : "+Inf"
                out += "boutique_http_request_duration_seconds_bucket{endpoint=\"\(endpoint.label)\",le=\"\(bound)\"} \(cumulative)\n"
            }
            out += "boutique_http_request_duration_seconds_sum{endpoint=\"\(endpoint.label)\"} \(snapshot.seconds[endpoint.rawValue])\n"
            out += "boutique_http_request_duration_seconds_count{endpoint=\"\(endpoint.label)\"} \(total)\n"
        }
        single("boutique_pushed_changes_total", "counter", "Changes received in accepted pushes.", pushed.load(ordering: .relaxed))
        single("boutique_pulled_changes_total", "counter", "Changes sent in answers to pulls.", pulled.load(ordering: .relaxed))
        family("boutique_refusals_total", "counter", "Requests refused, by the error body's code.")
        for (code, count) in snapshot.refusals.sorted(by: { $0.key < $1.key }) {
            out += "boutique_refusals_total{reason=\"\(code)\"} \(count)\n"
        }
        single("boutique_long_polls_waiting", "gauge", "Pulls waiting for changes now.", longPolls.load(ordering: .relaxed))
        single("boutique_connections_open", "gauge", "Client connections open now.", connectionsOpen)
        single("boutique_tenants_active", "gauge", "Tenants that made an authenticated request in the last 10 minutes.", active)
        single("boutique_store_errors_total", "counter", "Requests the store failed (answered 503), and readiness reads that failed (one per read, however many probes shared it).", storeErrors.load(ordering: .relaxed))
        if let logEntries {
            single("boutique_log_entries", "gauge", "Change-log entries the store holds, all tenants together (read at most once a minute).", logEntries)
        }
        family("boutique_gc_removed_total", "counter", "What garbage collection removed, by kind.")
        out += "boutique_gc_removed_total{kind=\"log\"} \(logRemoved.load(ordering: .relaxed))\n"
        out += "boutique_gc_removed_total{kind=\"tombstones\"} \(tombstonesRemoved.load(ordering: .relaxed))\n"
        return out
    }
}
