// The HTTP front end is part of the package where GNU libmicrohttpd is installed; so are its tests.
#if BOUTIQUE_SYNC_HTTP
import BoutiqueSQLite
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A server on 127.0.0.1 that answers every request for a path with the same canned body: a sync
/// server gone wrong, for what a device does with replies no real server sends; or a JWK Set URL whose
/// keys rotate (``answer(_:with:)``). Paths it has no answer for get a 404.
final class CannedHTTPServer: Sendable {
    let port: Int
    private let descriptor: Int32
    private let answers: Lock<[String: [UInt8]]>
    /// The paths asked for, in order.
    let requests = Lock<[String]>([])

    var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    init(answers: [String: [UInt8]]) throws {
        self.answers = Lock(answers)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw RawConnection.Failure(call: "socket", code: errno) }
        self.descriptor = descriptor
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) } }
        guard bound == 0, listen(descriptor, 16) == 0 else {
            close(descriptor)
            throw RawConnection.Failure(call: "bind", code: errno)
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        let listener = descriptor
        Thread { [self] in
            while true {
                let connection = accept(listener, nil, nil)
                guard connection >= 0 else { return }
                Thread { self.serve(connection) }.start()
            }
        }.start()
    }

    /// Answers `path` with `body` from now on.
    func answer(_ path: String, with body: [UInt8]) { answers.withLock { $0[path] = body } }

    /// Stops accepting connections.
    func stop() {
        shutdown(descriptor, Int32(SHUT_RDWR))
        close(descriptor)
    }

    /// Answers the requests of one connection, one after the other, until the client closes it.
    private func serve(_ connection: Int32) {
        defer { close(connection) }
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            // A request: its head up to the blank line, then as many body bytes as it says.
            var headEnd: Int?
            while headEnd == nil {
                headEnd = buffer.indices.dropLast(3).first { buffer[$0..<$0 + 4].elementsEqual([13, 10, 13, 10]) }
                if headEnd != nil { break }
                let count = recv(connection, &chunk, chunk.count, 0)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return }
                buffer += chunk.prefix(count)
            }
            let head = String(decoding: buffer[..<headEnd!], as: UTF8.self)
            let length = head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
            let total = headEnd! + 4 + length
            while buffer.count < total {
                let count = recv(connection, &chunk, chunk.count, 0)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return }
                buffer += chunk.prefix(count)
            }
            buffer.removeFirst(total)
            let path = head.split(separator: " ").dropFirst().first.map(String.init) ?? ""
            requests.withLock { $0.append(path) }
            let body = answers.withLock { $0[path] }
            let status = body == nil ? "404 Not Found" : "200 OK"
            let reply = Array("HTTP/1.1 \(status)\r\nContent-Type: application/json\r\nContent-Length: \((body ?? []).count)\r\n\r\n".utf8)
                + (body ?? [])
            var sent = 0
            while sent < reply.count {
                let count = reply[sent...].withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return }
                sent += count
            }
        }
    }
}
#endif
