/// Whether a request's path, as the client sent it (libmicrohttpd is told to leave its percent-escapes
/// alone), can be a path: one that holds a control character — a NUL byte above all, raw or as `%00`,
/// which a C string would end at — is refused rather than served as the part before it, and never
/// reaches a log line.
///
/// ```swift
/// if let refusal = RequestTarget.refusal(of: "/v1/health%00.json") { return respond(refusal) }   // 400
/// ```
enum RequestTarget {
    /// The 400 for a path with a control character (sent as is or percent-encoded), `nil` for a good one.
    static func refusal(of path: String) -> HTTPResponse? {
        guard let problem = problem(in: path) else { return nil }
        return .refusal(.invalid, problem)
    }

    static func problem(in path: String) -> String? {
        var bytes = path.utf8.makeIterator()
        while let byte = bytes.next() {
            var decoded = byte
            if byte == UInt8(ascii: "%") {
                // An escape's two hex digits; anything else stays as it is (and matches no route).
                var copy = bytes
                if let high = copy.next().flatMap(hexValue), let low = copy.next().flatMap(hexValue) {
                    decoded = high << 4 | low
                    bytes = copy
                }
            }
            if decoded == 0 { return "the path holds a NUL byte" }
            if decoded < 0x20 || decoded == 0x7F { return "the path holds a control character" }
        }
        return nil
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
