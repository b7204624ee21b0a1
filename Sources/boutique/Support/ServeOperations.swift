/// What `boutique serve` offers the machinery that runs it, as flags: `--drain DURATION`, how long
/// `/readyz` answers 503 after SIGTERM before the server stops taking connections, and
/// `--metrics-port PORT`, where Prometheus reads its metrics on 127.0.0.1, and
/// `--housekeeping-interval DURATION`, the time between housekeeping rounds.
struct ServeOperations {
    var drainSeconds: Int64 = 0
    var metricsPort: Int?
    /// The time between housekeeping rounds (``/BoutiqueSyncServer/SyncHousekeeping``'s `interval`).
    var housekeepingInterval: Duration = .seconds(3_600)

    /// The time from start to the first housekeeping round: ten minutes, so that a server just
    /// started has time to settle, or the interval when that is shorter.
    var firstHousekeepingRound: Duration { min(.seconds(600), housekeepingInterval) }

    /// Reads `--drain DURATION --metrics-port PORT --housekeeping-interval DURATION`, each optional.
    init(_ arguments: inout ArgumentParser) throws {
        if let text = try arguments.takeOption("--housekeeping-interval") {
            housekeepingInterval = .seconds(try DurationText.seconds(text, option: "--housekeeping-interval"))
        }
        if let text = try arguments.takeOption("--drain") { drainSeconds = try DurationText.seconds(text, option: "--drain") }
        if let text = try arguments.takeOption("--metrics-port") {
            guard let port = Int(text), (0...65_535).contains(port) else { throw UsageError("--metrics-port takes 0…65535, not '\(text)'") }
            metricsPort = port
        }
    }
}
