#if os(Linux)
import CLibcurl
import Foundation
import FoundationNetworking

/// A request of ``HTTPSyncTransport`` on Linux, sent through libcurl itself.
///
/// FoundationNetworking's `URLSession` is libcurl underneath, but it has no way to trust a private
/// authority for one session (it takes the system's bundle for every request of the process), it
/// reports a certificate it does not trust as an unknown error, and it copies each answer through
/// buffers of its own. Here the authorities of a ``SyncServerTrust`` are given to this request's handle
/// alone, an untrusted certificate is told apart from a network failure, and the answer's bytes are
/// the ones libcurl wrote.
///
/// The request goes through one of the transport's kept handles (``LibcurlHandles``), whose
/// connection the previous request left open.
///
/// libcurl blocks the thread it runs on, for as long as a long-polling pull waits: each request has a
/// thread of its own rather than one of the concurrency pool's. Cancelling the task ends it within
/// about a second (libcurl's progress callback asks).
enum LibcurlExchange {
    /// How a request ended, when no answer came.
    enum Failure: Error {
        /// The server's certificate is not trusted (or the authorities cannot be read): final.
        case untrusted(String)
        /// No answer, or the TLS handshake failed: worth another try.
        case noAnswer(String)
        /// libcurl cannot be used: final.
        case unavailable(String)
    }

    /// Sends `request` (its method, its body) and returns the answer's body and status.
    static func send(_ request: URLRequest, trust: SyncServerTrust, handles: LibcurlHandles) async throws -> (Data, Int) {
        let transfer = Transfer(request, trust: trust, handles: handles)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<(Data, Int), any Error>) in
                let thread = Thread {
                    continuation.resume(with: transfer.perform())
                }
                thread.name = "BoutiqueSync HTTP"
                thread.start()
            }
        } onCancel: {
            boutique_curl_cancel(transfer.exchange)
        }
    }

    /// One request's C memory: the exchange libcurl fills in, and the strings and bytes it points to,
    /// which live as long as the transfer (freed when both the thread and the cancellation handler
    /// are done with it).
    private final class Transfer: @unchecked Sendable {
        let exchange: UnsafeMutablePointer<boutique_curl_exchange>
        private var strings: [UnsafeMutablePointer<CChar>] = []
        private let headers: UnsafeMutablePointer<UnsafePointer<CChar>?>
        private let headerCount: Int
        private let body: UnsafeMutableRawBufferPointer
        private let authorities: UnsafeMutableRawBufferPointer?
        private let handles: LibcurlHandles

        init(_ request: URLRequest, trust: SyncServerTrust, handles: LibcurlHandles) {
            self.handles = handles
            exchange = .allocate(capacity: 1)
            exchange.initialize(to: boutique_curl_exchange())
            let lines = (request.allHTTPHeaderFields ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
            headerCount = lines.count
            headers = .allocate(capacity: max(1, lines.count))
            body = Self.copy(request.httpBody ?? Data())
            authorities = trust.isSystem ? nil : Self.copy(trust.pem)
            let url = Self.copy(request.url?.absoluteString ?? "")
            strings.append(url)
            let method = Self.copy(request.httpMethod ?? "POST")
            strings.append(method)
            exchange.pointee.method = UnsafePointer(method)
            for (index, line) in lines.enumerated() {
                let copy = Self.copy(line)
                strings.append(copy)
                headers[index] = UnsafePointer(copy)
            }
            exchange.pointee.url = UnsafePointer(url)
            exchange.pointee.headers = UnsafePointer(headers)
            exchange.pointee.header_count = lines.count
            exchange.pointee.body = UnsafeRawPointer(body.baseAddress)
            exchange.pointee.body_length = request.httpBody?.count ?? 0
            exchange.pointee.authorities = UnsafeRawPointer(authorities?.baseAddress)
            exchange.pointee.authorities_length = authorities?.count ?? 0
            exchange.pointee.timeout_milliseconds = Int(min(max(request.timeoutInterval, 1), 86_400) * 1_000)
        }

        /// Sends the request, blocking this thread until it ends.
        func perform() -> Result<(Data, Int), any Error> {
            // Taken on this thread, given back once the answer is in: one request per handle at a time.
            exchange.pointee.handle = handles.take()
            let outcome = boutique_curl_perform(exchange)
            handles.give(exchange.pointee.handle)
            exchange.pointee.handle = nil
            defer { boutique_curl_free(exchange) }
            let detail = String(cString: boutique_curl_error(exchange))
            switch outcome {
            case BOUTIQUE_CURL_ANSWERED:
                // The answer's buffer (libcurl's `malloc`) becomes the data's, freed with it.
                let length = exchange.pointee.response_length
                let data = exchange.pointee.response.map { Data(bytesNoCopy: $0, count: length, deallocator: .free) } ?? Data()
                exchange.pointee.response = nil
                return .success((data, Int(exchange.pointee.status)))
            case BOUTIQUE_CURL_UNTRUSTED: return .failure(Failure.untrusted(detail))
            case BOUTIQUE_CURL_CANCELLED: return .failure(CancellationError())
            case BOUTIQUE_CURL_UNAVAILABLE: return .failure(Failure.unavailable(detail))
            case BOUTIQUE_CURL_HANDSHAKE_FAILED: return .failure(Failure.noAnswer("the TLS handshake failed: \(detail)"))
            case BOUTIQUE_CURL_TOO_LARGE: return .failure(Failure.noAnswer("the answer is larger than 64 MiB"))
            default: return .failure(Failure.noAnswer(detail))
            }
        }

        deinit {
            for string in strings { string.deallocate() }
            headers.deallocate()
            body.deallocate()
            authorities?.deallocate()
            exchange.deallocate()
        }

        private static func copy(_ text: String) -> UnsafeMutablePointer<CChar> {
            let characters = text.utf8CString
            let copy = UnsafeMutablePointer<CChar>.allocate(capacity: characters.count)
            _ = UnsafeMutableBufferPointer(start: copy, count: characters.count).initialize(from: characters)
            return copy
        }

        private static func copy(_ bytes: some DataProtocol) -> UnsafeMutableRawBufferPointer {
            let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, bytes.count), alignment: 1)
            bytes.copyBytes(to: copy)
            return copy
        }
    }
}
#endif
