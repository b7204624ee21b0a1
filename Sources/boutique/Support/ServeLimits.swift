#if BOUTIQUE_SYNC_HTTP
import BoutiqueSyncHTTP
#endif

/// The `--log-format` of `boutique serve`, readable in a build without the HTTP front end too.
enum SyncRequestLogFormat: String {
    case text, json

    #if BOUTIQUE_SYNC_HTTP
    var format: SyncRequestLog.Format { self == .json ? .json : .text }
    #endif
}

/// The limits `boutique serve` takes as flags; the ones left out keep the server's defaults.
struct ServeLimits {
    var maximumBodyBytes: Int?
    var maximumWaitSeconds: Int64?
    var connectionLimit: Int?
    var connectionsPerAddress: Int?
    var requestDeadlineSeconds: Int64?
    var responseDeadlineSeconds: Int64?
    var unfinishedRequestLimit: Int?
    var unfinishedRequestsPerAddress: Int?
    var maximumQueuedResponseBytes: Int?

    /// Reads `--max-body-bytes N --max-wait DURATION --connection-limit N --connections-per-address N
    /// --request-deadline DURATION --response-deadline DURATION --unfinished-request-limit N
    /// --unfinished-requests-per-address N --max-queued-response-bytes N`, each optional.
    init(_ arguments: inout ArgumentParser) throws {
        maximumBodyBytes = try Self.count(&arguments, "--max-body-bytes")
        maximumWaitSeconds = try arguments.takeOption("--max-wait").map { try DurationText.seconds($0, option: "--max-wait") }
        connectionLimit = try Self.count(&arguments, "--connection-limit")
        connectionsPerAddress = try Self.count(&arguments, "--connections-per-address")
        requestDeadlineSeconds = try arguments.takeOption("--request-deadline").map {
            try DurationText.seconds($0, option: "--request-deadline")
        }
        responseDeadlineSeconds = try arguments.takeOption("--response-deadline").map {
            try DurationText.seconds($0, option: "--response-deadline")
        }
        unfinishedRequestLimit = try Self.count(&arguments, "--unfinished-request-limit")
        unfinishedRequestsPerAddress = try Self.count(&arguments, "--unfinished-requests-per-address")
        maximumQueuedResponseBytes = try Self.count(&arguments, "--max-queued-response-bytes")
    }

    static func count(_ arguments: inout ArgumentParser, _ option: String) throws -> Int? {
        guard let text = try arguments.takeOption(option) else { return nil }
        guard let value = Int(text), value > 0, value <= 1 << 40 else { throw UsageError("\(option) takes a positive number, not '\(text)'") }
        return value
    }

    #if BOUTIQUE_SYNC_HTTP
    /// The server's options with these limits.
    var options: SyncHTTPOptions {
        var options = SyncHTTPOptions()
        if let maximumBodyBytes { options.maximumBodyBytes = maximumBodyBytes }
        if let maximumWaitSeconds { options.maximumWaitMilliseconds = Int(maximumWaitSeconds) * 1_000 }
        if let connectionLimit { options.connectionLimit = connectionLimit }
        if let connectionsPerAddress { options.connectionsPerAddress = connectionsPerAddress }
        if let requestDeadlineSeconds { options.requestDeadline = .seconds(requestDeadlineSeconds) }
        if let responseDeadlineSeconds { options.responseDeadline = .seconds(responseDeadlineSeconds) }
        if let unfinishedRequestLimit { options.unfinishedRequestLimit = unfinishedRequestLimit }
        if let unfinishedRequestsPerAddress { options.unfinishedRequestsPerAddress = unfinishedRequestsPerAddress }
        if let maximumQueuedResponseBytes { options.maximumQueuedResponseBytes = maximumQueuedResponseBytes }
        return options
    }
    #endif
}
