// Only where the swift-syntax package's `SwiftCompilerPlugin`, which has its own connection, is missing.
#if !canImport(SwiftCompilerPlugin)
@_spi(PluginMessage) import SwiftCompilerPluginMessageHandling

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The compiler's plugin wire format over standard input and output: each message is an 8-byte
/// little-endian length followed by that many bytes of JSON.
///
/// Standard output is moved to a private descriptor first, so that a stray `print` inside a macro
/// cannot corrupt the protocol stream (it goes to standard error instead).
///
/// The JSON is swift-syntax's own coder, as in the package's `CompilerPlugin`: the plugin links no
/// Foundation, which makes it smaller and quicker to start, and keeps the module building the same way
/// against the toolchain's SwiftSyntax and against the swift-syntax package.
final class StandardIOMessageConnection: MessageConnection {
    private let input: Int32
    private let output: Int32

    struct ProtocolError: Error, CustomStringConvertible {
        let description: String
    }

    init() throws {
        input = dup(STDIN_FILENO)
        output = dup(STDOUT_FILENO)
        guard input >= 0, output >= 0 else { throw ProtocolError(description: "cannot duplicate standard I/O") }
        // Anything else written to stdout now lands on stderr; nothing is read from stdin but messages.
        _ = dup2(STDERR_FILENO, STDOUT_FILENO)
        let devNull = open("/dev/null", O_RDONLY)
        if devNull >= 0 {
            _ = dup2(devNull, STDIN_FILENO)
            _ = close(devNull)
        }
    }

    func sendMessage<TX: Encodable>(_ message: TX) throws {
        let payload = try JSON.encode(message)
        var header = UInt64(payload.count).littleEndian
        try withUnsafeBytes(of: &header) { try writeAll($0) }
        try payload.withUnsafeBytes { try writeAll($0) }
    }

    func waitForNextMessage<RX: Decodable>(_ type: RX.Type) throws -> RX? {
        var header: UInt64 = 0
        let headerRead = try withUnsafeMutableBytes(of: &header) { try readAll(into: $0) }
        guard headerRead else { return nil }  // the compiler closed the pipe: we are done
        let length = UInt64(littleEndian: header)
        // An empty message carries nothing to decode; compilers send one as they finish with the
        // plugin, so it ends the exchange like a closed pipe instead of failing as malformed JSON.
        if length == 0 { return nil }
        guard length < 1 << 32, let count = Int(exactly: length) else {
            throw ProtocolError(description: "message of \(length) bytes")
        }
        var payload = [UInt8](repeating: 0, count: count)
        let complete = try payload.withUnsafeMutableBytes { try readAll(into: $0) }
        guard complete else { throw ProtocolError(description: "stream ended inside a message") }
        return try payload.withUnsafeBufferPointer { try JSON.decode(RX.self, from: $0) }
    }

    private func writeAll(_ buffer: UnsafeRawBufferPointer) throws {
        guard var cursor = buffer.baseAddress else { return }
        var remaining = buffer.count
        while remaining > 0 {
            let written = write(output, cursor, remaining)
            if written < 0 {
                if errno == EINTR { continue }
                throw ProtocolError(description: "write failed: errno \(errno)")
            }
            cursor += written
            remaining -= written
        }
    }

    /// Fills `buffer`; `false` when the stream ended before the first byte.
    private func readAll(into buffer: UnsafeMutableRawBufferPointer) throws -> Bool {
        guard var cursor = buffer.baseAddress else { return true }
        var remaining = buffer.count
        while remaining > 0 {
            let count = read(input, cursor, remaining)
            if count < 0 {
                if errno == EINTR { continue }
                throw ProtocolError(description: "read failed: errno \(errno)")
            }
            if count == 0 {
                if remaining == buffer.count { return false }
                throw ProtocolError(description: "stream ended inside a message")
            }
            cursor += count
            remaining -= count
        }
        return true
    }
}
#endif
