import Foundation

/// Where a ``SyncHTTPServer`` reports what it does: one line per request, one per authentication
/// failure, one per store failure with the error the client was not shown, and one per push whose
/// rows the sync rules could not place, with what of them does not match the tenant's tables.
///
/// ```swift
/// let log = SyncRequestLog(format: .json) { line in print(line) }
/// let http = try SyncHTTPServer(server: server, signer: signer, port: 8080, log: log)
/// ```
///
/// A request's line has its time (UTC, ISO 8601 with milliseconds), client address, method, path,
/// status, tenant and user (from its verified token; `-` without one), bytes received and sent
/// (bodies), duration and request id — the id the response carries in its `X-Request-Id` header:
///
/// ```
/// 2026-12-03T18:40:12.345Z 127.0.0.1 POST /v1/push 200 tenant=acme user=ana in=512 out=64 ms=3 id=5f0c2a9e8d1b4c77
/// ```
///
/// An authentication failure says why (`expired`, `signature`, …), never the token; a store failure
/// has the underlying error. Lines are written by whichever thread finishes the request: the sink must
/// be thread-safe (``standardError(format:)`` writes each line with one `write`).
public struct SyncRequestLog: Sendable {
    /// How lines are written.
    public enum Format: String, Sendable, CaseIterable {
        /// A readable line of `key=value` fields.
        case text
        /// One JSON object per line, for log collectors.
        case json
    }

    /// How lines are written.
    public let format: Format
    private let sink: @Sendable (String) -> Void

    /// A log that gives each line (without its newline) to `sink`.
    public init(format: Format = .text, sink: @escaping @Sendable (String) -> Void) {
        self.format = format
        self.sink = sink
    }

    /// A log that writes to the process's standard error, a line at a time.
    public static func standardError(format: Format = .text) -> SyncRequestLog {
        SyncRequestLog(format: format) { line in
            let bytes = Array((line + "\n").utf8)
            bytes.withUnsafeBytes { buffer in
                var offset = 0
                while offset < buffer.count {
                    let written = write(2, buffer.baseAddress! + offset, buffer.count - offset)
                    guard written > 0 else { return }
                    offset += written
                }
            }
        }
    }

    // MARK: Lines

    /// One answered (or abandoned) request.
    struct Request {
        var time: Date
        var client: String
        var method: String
        var path: String
        /// 0 when the client went away before it was answered.
        var status: Int
        var tenant: String?
        var user: String?
        var bytesIn: Int
        var bytesOut: Int
        var duration: Duration
        var requestID: String
    }

    func request(_ request: Request) {
        let milliseconds = Double(request.duration.components.seconds) * 1_000
            + Double(request.duration.components.attoseconds) / 1e15
        emit(
            request.time, event: "request",
            [
                ("client", .text(request.client)), ("method", .text(request.method)), ("path", .text(request.path)),
                ("status", .number(Double(request.status))), ("tenant", request.tenant.map { .text($0) } ?? .none),
                ("user", request.user.map { .text($0) } ?? .none), ("in", .number(Double(request.bytesIn))),
                ("out", .number(Double(request.bytesOut))), ("ms", .number((milliseconds * 10).rounded() / 10)),
                ("id", .text(request.requestID)),
            ])
    }

    /// A request refused for its credentials: why, never the credentials themselves.
    func authenticationFailure(client: String, path: String, reason: String, requestID: String) {
        emit(Date(), event: "auth-failure", [
            ("client", .text(client)), ("path", .text(path)), ("reason", .text(reason)), ("id", .text(requestID)),
        ])
    }

    /// A connection closed because its request did not arrive whole within the deadline.
    func requestTimeout(client: String, deadline: Duration) {
        emit(Date(), event: "request-timeout", [
            ("client", .text(client)), ("deadline_s", .number(Double(deadline.components.seconds))),
        ])
    }

    /// A connection closed because its client did not read its whole answer within the deadline.
    func responseTimeout(client: String, deadline: Duration) {
        emit(Date(), event: "response-timeout", [
            ("client", .text(client)), ("deadline_s", .number(Double(deadline.components.seconds))),
        ])
    }

    /// A connection that had not sent a whole request, closed to make room for a new one: the server
    /// had as many such connections as it keeps (in all, or from the new one's address).
    func unfinishedDisplaced(client: String) {
        emit(Date(), event: "unfinished-request-closed", [("client", .text(client))])
    }

    /// A request the store failed, with the error its client was not shown.
    func storeFailure(client: String, path: String, error: String, requestID: String) {
        emit(Date(), event: "store-failure", [
            ("client", .text(client)), ("path", .text(path)), ("error", .text(error)), ("id", .text(requestID)),
        ])
    }

    /// A push not placed because the sync rules do not match the tenant's tables, with what does not
    /// match (the device is told only that it must try again later).
    func rulesMismatch(tenant: String, reason: String, requestID: String) {
        emit(Date(), event: "rules-mismatch", [("tenant", .text(tenant)), ("reason", .text(reason)), ("id", .text(requestID))])
    }

    /// An event of the server's own (what housekeeping collected, say), as one line in the log's
    /// format, so that a log collector reading JSON lines meets nothing else.
    ///
    /// ```swift
    /// log.note("housekeeping", message: "collected 12 tombstones of acme")
    /// ```
    public func note(_ event: String, message: String) {
        emit(Date(), event: event, [("message", .text(message))])
    }

    private enum Field {
        case text(String)
        case number(Double)
        case none
    }

    private func emit(_ time: Date, event: String, _ fields: [(String, Field)]) {
        let stamp = time.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
        switch format {
        case .json:
            var object: [String: Any] = ["time": stamp, "event": event]
            for (key, field) in fields {
                switch field {
                case .text(let text): object[key] = text
                case .number(let number): object[key] = number == number.rounded() ? Int(number) as Any : number
                case .none: object[key] = NSNull()
                }
            }
            guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) else { return }
            sink(String(decoding: data, as: UTF8.self))
        case .text:
            var line = "\(stamp) \(event)"
            for (key, field) in fields {
                switch field {
                case .text(let text): line += " \(key)=\(Self.quoted(text))"
                case .number(let number): line += " \(key)=\(number == number.rounded() ? String(Int(number)) : String(number))"
                case .none: line += " \(key)=-"
                }
            }
            sink(line)
        }
    }

    /// `text` as it is when it has no space, quote, `=` or control character, else in double quotes
    /// with those escaped, so that a line always splits into its fields (a hostile path or reason
    /// cannot forge a field or a line).
    private static func quoted(_ text: String) -> String {
        let plain = !text.isEmpty && text.unicodeScalars.allSatisfy { scalar in
            scalar.value > 0x20 && scalar.value != 0x7F && scalar != "\"" && scalar != "=" && scalar != "\\"
                && scalar.properties.generalCategory != .control
        }
        if plain { return text }
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || scalar.properties.generalCategory == .control {
                    out += String(format: "\\u%04x", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
