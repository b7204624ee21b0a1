#if os(Linux)
import BoutiqueSQLite
import CLibcurl

/// The libcurl handles one ``HTTPSyncTransport`` (and its copies) sends `https://` requests through,
/// kept between requests so that each keeps its connection to the server open: the next request on
/// it skips the TCP connection and the TLS handshake.
///
/// A handle serves one request at a time: a request takes an idle one (or makes one), and gives it
/// back when its answer is in; a long-polling pull and a push that run together each hold their own.
/// At most ``limit`` idle handles are kept (a transport runs a few requests at once: a pull, a push, a
/// snapshot page asked for ahead); one given back past that is closed. The handles close when the
/// last copy of the transport goes.
///
/// Each request sets every option on its handle again, the authorities to trust included
/// (``SyncServerTrust``): the handles are this transport's alone, and libcurl reuses a connection
/// only for a request whose TLS settings match the ones it was verified with.
///
/// ```swift
/// let handles = LibcurlHandles()
/// let handle = handles.take()      // an idle handle, or a new one
/// defer { handles.give(handle) }   // kept, with its connection, for the next request
/// ```
final class LibcurlHandles: Sendable {
    /// The most idle handles kept.
    static let limit = 4

    /// The idle handles, as addresses: a handle is only used by the one request that took it.
    private let idle = Lock<[UInt]>([])

    /// An idle handle, or a new one; `nil` when libcurl cannot make one (the request then reports why).
    func take() -> UnsafeMutableRawPointer? {
        if let kept = idle.withLock({ $0.popLast() }) { return UnsafeMutableRawPointer(bitPattern: kept) }
        return boutique_curl_handle_create()
    }

    /// Keeps `handle` for a later request, or closes it when ``limit`` handles are idle already.
    func give(_ handle: UnsafeMutableRawPointer?) {
        guard let handle else { return }
        let address = UInt(bitPattern: handle)
        let kept = idle.withLock { handles -> Bool in
            guard handles.count < Self.limit else { return false }
            handles.append(address)
            return true
        }
        if !kept { boutique_curl_handle_destroy(handle) }
    }

    /// How many handles are idle now.
    var idleCount: Int { idle.withLock { $0.count } }

    deinit {
        for address in idle.withLock({ $0 }) { boutique_curl_handle_destroy(UnsafeMutableRawPointer(bitPattern: address)) }
    }
}
#endif
