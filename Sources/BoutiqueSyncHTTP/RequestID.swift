/// The id of one request: in its response's `X-Request-Id` header, its error body's reason when the
/// server failed, and its log lines, so that an operator can find what a client reports.
enum RequestID {
    /// 16 random hex digits: unique enough to find one request in a day's log, and not a counter a
    /// client could learn the server's traffic from.
    static func make() -> String {
        let value = UInt64.random(in: .min ... .max)
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
