import CPostgreSQL
import Foundation

/// One libpq connection (`PGconn`), used by one thread at a time.
///
/// ```swift
/// let connection = try PostgreSQLConnection(url: "postgresql://sync@db.internal/sync")
/// let result = try connection.execute("SELECT count(*)::int8 FROM boutique_sync_server_log WHERE tenant = $1", [.text("acme")])
/// ```
///
/// Every call blocks its thread (the network, the server, a lock another session holds): callers
/// run it on a queue of their own (``PostgreSQLWorker``), never on the cooperative pool.
///
/// Failures are ``/BoutiqueDB/BoutiqueError/syncUnavailable(reason:)`` carrying PostgreSQL's message and
/// SQLSTATE: for the sync server every failure of its store means the same thing, "this request did
/// not happen, try again later", whether the connection dropped, the server is shutting down, or a
/// statement failed.
final class PostgreSQLConnection {
    private let handle: OpaquePointer

    /// Connects (blocking) to the server `url` names, a libpq connection URI or key/value string.
    ///
    /// Unless `url` says otherwise, a connection attempt gives up after 10 seconds (libpq's default
    /// is to wait for the operating system) and names itself `applicationName` in
    /// `pg_stat_activity`. The client encoding is always UTF-8, which the text this code sends and
    /// reads is.
    init(url: String, applicationName: String = "BoutiqueSyncServer") throws(BoutiqueError) {
        // Keywords are applied in order, the expanded `dbname` (the URL) overriding those before it:
        // the URL's own settings win over the defaults, and nothing overrides the encoding.
        let keywords = ["connect_timeout", "fallback_application_name", "dbname", "client_encoding"]
        let values = ["10", applicationName, url, "UTF8"]
        let connection = Self.withCStrings(keywords) { keywords in
            Self.withCStrings(values) { values in PQconnectdbParams(keywords, values, 1) }
        }
        guard let connection else { throw .syncUnavailable(reason: "libpq could not allocate a connection") }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = Self.text(PQerrorMessage(connection))
            PQfinish(connection)
            throw .syncUnavailable(reason: "cannot connect to PostgreSQL: \(message)")
        }
        // libpq prints the server's notices ("relation already exists, skipping") to stderr by
        // default; a server process has no business writing them there.
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
        handle = connection
    }

    deinit { PQfinish(handle) }

    /// `true` once libpq has seen the connection fail; it cannot be used again.
    var isBroken: Bool { PQstatus(handle) != CONNECTION_OK }

    /// `true` inside a transaction in which a statement failed: only a rollback is accepted now.
    var isInFailedTransaction: Bool { PQtransactionStatus(handle) == PQTRANS_INERROR }

    /// `true` while a transaction is open (failed or not).
    var isInTransaction: Bool {
        let status = PQtransactionStatus(handle)
        return status == PQTRANS_INTRANS || status == PQTRANS_INERROR
    }

    /// The socket libpq reads from, for waiting on notifications; -1 when there is none.
    var socket: Int32 { PQsocket(handle) }

    /// Runs one statement with `parameters` bound to `$1`, `$2`, … and returns its rows in binary
    /// format.
    @discardableResult
    func execute(_ sql: String, _ parameters: [PostgreSQLValue] = []) throws(BoutiqueError) -> PostgreSQLResult {
        var buffer: [UInt8] = []
        var offsets: [Int?] = []
        var lengths: [Int32] = []
        var types: [Oid] = []
        offsets.reserveCapacity(parameters.count)
        for parameter in parameters {
            let start = buffer.count
            offsets.append(parameter.append(to: &buffer) ? start : nil)
            // PostgreSQL's own limit for one value is 1 GB; libpq's lengths are 32-bit.
            guard let length = Int32(exactly: buffer.count - start) else {
                throw .invalidArgument("a value of \(buffer.count - start) bytes is too long for PostgreSQL")
            }
            lengths.append(length)
            types.append(parameter.type.rawValue)
        }
        // One byte more, so that an empty value still has an address (a null pointer would be NULL).
        buffer.append(0)
        let formats = [Int32](repeating: 1, count: parameters.count)
        let result: OpaquePointer? = buffer.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                let values: [UnsafePointer<CChar>?] = offsets.map { offset in
                    offset.flatMap { offset in chars.baseAddress.map { UnsafePointer($0 + offset) } }
                }
                return PQexecParams(handle, sql, Int32(parameters.count), types, values, lengths, formats, 1)
            }
        }
        guard let result else { throw failure(nil, sql: sql) }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK:
            return PostgreSQLResult(result)
        default:
            let error = failure(result, sql: sql)
            PQclear(result)
            throw error
        }
    }

    /// Reads what the server sent without waiting; `false` when the connection failed.
    func consumeInput() -> Bool { PQconsumeInput(handle) == 1 }

    /// The next notification received (`LISTEN`): its channel and payload.
    func nextNotification() -> (channel: String, payload: String)? {
        guard let notification = PQnotifies(handle) else { return nil }
        defer { PQfreemem(notification) }
        return (Self.text(notification.pointee.relname), Self.text(notification.pointee.extra))
    }

    /// The error for a statement that failed (`result` is `nil` when libpq could not even send it).
    private func failure(_ result: OpaquePointer?, sql: String) -> BoutiqueError {
        let message: String
        var state: String?
        if let result {
            let primary = Self.text(PQresultErrorField(result, Self.field("M")))
            message = primary.isEmpty ? Self.text(PQresultErrorMessage(result)) : primary
            state = PQresultErrorField(result, Self.field("C")).map { String(cString: $0) }
        } else {
            message = Self.text(PQerrorMessage(handle))
        }
        if isBroken {
            return .syncUnavailable(reason: "the connection to PostgreSQL was lost: \(message)")
        }
        let code = state.map { " \($0)" } ?? ""
        return .syncUnavailable(reason: "PostgreSQL error\(code): \(message) — while running: \(sql)")
    }

    /// An error field's code (`PG_DIAG_*`, which are character constants).
    private static func field(_ code: Unicode.Scalar) -> Int32 { Int32(UInt8(ascii: code)) }

    /// libpq's text without its trailing newline; empty for none.
    private static func text(_ pointer: UnsafePointer<CChar>?) -> String {
        guard let pointer else { return "" }
        var text = String(cString: pointer)
        while text.last?.isNewline == true { text.removeLast() }
        return text
    }

    private static func text(_ pointer: UnsafeMutablePointer<CChar>?) -> String {
        text(pointer.map { UnsafePointer($0) })
    }

    /// Calls `body` with `strings` as a NULL-terminated array of C strings.
    private static func withCStrings<R>(_ strings: [String], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
        let copies = strings.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        return body(copies.map { copy in copy.map { UnsafePointer($0) } } + [nil])
    }
}
