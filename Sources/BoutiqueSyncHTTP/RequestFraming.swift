import CMicroHTTPD

/// Whether a request's head says unambiguously where its body ends: one `Content-Length` of digits,
/// or `Transfer-Encoding: chunked` alone, or neither. A head that says it two ways (two lengths, a
/// length and a coding) is how requests are smuggled past a proxy that reads it the other way; it is
/// refused, and its connection closed, rather than guessed at.
enum RequestFraming {
    /// The answer for a request whose head is ambiguous or unsupported: 400, or 501 for a transfer
    /// coding other than chunked; `nil` for a good one.
    static func refusal(of connection: OpaquePointer) -> HTTPResponse? {
        var framing = boutique_framing()
        boutique_mhd_framing(connection, &framing)
        if framing.nul_in_value != 0 {
            return .refusal(.invalid, "a header line holds a NUL byte")
        }
        if framing.content_lengths > 1 {
            let which = framing.content_lengths_differ != 0 ? "different " : ""
            return .refusal(.invalid, "the request has \(framing.content_lengths) \(which)Content-Length headers; send one")
        }
        if framing.transfer_encodings > 0, framing.content_lengths > 0 {
            return .refusal(.invalid, "the request has both Content-Length and Transfer-Encoding; send one")
        }
        if framing.unknown_transfer_coding != 0 {
            return .error(501, "not-implemented", "the only transfer coding this server reads is chunked")
        }
        if framing.transfer_encodings > 1 {
            return .refusal(.invalid, "the request has \(framing.transfer_encodings) Transfer-Encoding headers; send one")
        }
        if framing.content_lengths == 1, let text = framing.first_content_length {
            let bytes = UnsafeRawBufferPointer(start: text, count: framing.first_content_length_size)
            guard !bytes.isEmpty, bytes.count <= 19, bytes.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
                Int(String(decoding: bytes, as: UTF8.self)) != nil
            else {
                // Past 2^63 - 1 too: libmicrohttpd takes up to 2^64 - 1 and would wait for that body.
                return .refusal(.invalid, "the Content-Length is not a number of bytes")
            }
        }
        return nil
    }
}
