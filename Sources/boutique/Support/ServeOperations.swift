/// What `boutique serve` offers the machinery that runs it, as flags: `--drain DURATION`, how long
/// `/readyz` answers 503 after SIGTERM before the server stops taking connections, and
/// `--metrics-port PORT`, where Prometheus reads its metrics on 127.0.0.1.
struct ServeOperations {
    var drainSeconds: Int64 = 0
    var metricsPort: Int?

    /// Reads `--drain DURATION --metrics-port PORT`, each optional.
    init(_ arguments: inout ArgumentParser) throws {
        if let text = try arguments.takeOption("--drain") { drainSeconds = try DurationText.seconds(text, option: "--drain") }
        if let text = try arguments.takeOption("--metrics-port") {
            guard let port = Int(text), (0...65_535).contains(port) else { throw UsageError("--metrics-port takes 0…65535, not '\(text)'") }
            metricsPort = port
        }
    }
}
