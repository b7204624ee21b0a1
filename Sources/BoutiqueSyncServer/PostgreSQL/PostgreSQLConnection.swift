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

    /// `true` once libpq has seen the connection fail (or a pipeline left it out of step with the
    /// server); it cannot be used again.
    var isBroken: Bool { isUnusable || PQstatus(handle) != CONNECTION_OK }

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
    /// format; the statements deferred by ``executeLater(_:_:)`` go first, in the same round trip.
    @discardableResult
    func execute(_ sql: String, _ parameters: [PostgreSQLValue] = []) throws(BoutiqueError) -> PostgreSQLResult {
        deferred.append(Statement(sql: sql, parameters: parameters))
        return try flush()
    }

    /// Queues a statement whose rows nobody reads (a write, a lock) to be sent with the next one
    /// that needs an answer: its failure is thrown there, and fails the transaction as it would have
    /// here. A transaction's writes thus cost no round trip of their own.
    func executeLater(_ sql: String, _ parameters: [PostgreSQLValue] = []) throws(BoutiqueError) {
        deferred.append(Statement(sql: sql, parameters: parameters))
        if deferred.count >= Self.deferredLimit { try flush() }
    }

    /// Forgets the statements not yet sent: for a transaction abandoned before its commit, whose
    /// rollback must not send them.
    func discardDeferred() { deferred.removeAll() }

    /// How many round trips completed without an error, for telling a connection that was stale
    /// before a transaction sent anything from one that broke in the middle of it.
    private(set) var roundTrips = 0

    /// A statement waiting to be sent.
    private struct Statement {
        let sql: String
        let parameters: [PostgreSQLValue]
    }

    /// One message of a pipeline whose result is awaited: a statement being prepared, or run.
    private enum Sent {
        case prepare(key: String, name: String, sql: String)
        case run(sql: String)
    }

    private var deferred: [Statement] = []
    /// Names of the statements prepared on this connection, by text and parameter types.
    private var prepared: [String: String] = [:]
    private var isUnusable = false

    /// At most this many statements wait: a pipeline's results (a few bytes per write) then always
    /// fit the socket's buffers, so the server never blocks writing them while this side is still
    /// sending, which in blocking mode would leave both waiting on each other.
    static let deferredLimit = 128
    /// Statements beyond this many distinct ones are not prepared (parsed again on each use), so a
    /// connection's prepared statements stay bounded whatever runs on it.
    static let preparedLimit = 256

    /// Sends the deferred statements as one pipeline (libpq's pipeline mode: every statement sent,
    /// then one sync, then the results read in order) and returns the last statement's result. A
    /// statement with parameters is prepared on its first use and run by name from then on, so the
    /// server parses and plans it once per connection. After a failure PostgreSQL skips the rest of
    /// the pipeline; the first error is thrown.
    @discardableResult
    private func flush() throws(BoutiqueError) -> PostgreSQLResult {
        let statements = deferred
        deferred = []
        guard let lastSQL = statements.last?.sql else { throw .syncUnavailable(reason: "no PostgreSQL statement to run") }
        guard !isUnusable, PQenterPipelineMode(handle) == 1 else { throw failure(nil, sql: lastSQL) }
        var sent: [Sent] = []
        var preparing: [String: String] = [:]
        var sendError: BoutiqueError?
        for statement in statements {
            do throws(BoutiqueError) {
                try send(statement, into: &sent, preparing: &preparing)
            } catch {
                sendError = error
                break
            }
        }
        // Synced even after a statement could not be sent: the server sends the results of those
        // before it only at a sync.
        let synced = PQpipelineSync(handle) == 1
        var firstError = sendError ?? (synced ? nil : failure(nil, sql: lastSQL))
        var last: PostgreSQLResult?
        for (index, message) in sent.enumerated() {
            while let result = PQgetResult(handle) {
                let status = PQresultStatus(result)
                switch (status, message) {
                case (PGRES_COMMAND_OK, .prepare(let key, let name, _)):
                    prepared[key] = name
                    PQclear(result)
                case (PGRES_COMMAND_OK, .run), (PGRES_TUPLES_OK, .run):
                    if index == sent.count - 1 { last = PostgreSQLResult(result) } else { PQclear(result) }
                case (PGRES_PIPELINE_ABORTED, _):
                    PQclear(result)
                default:
                    if firstError == nil {
                        switch message {
                        case .prepare(_, _, let sql), .run(let sql): firstError = failure(result, sql: sql)
                        }
                    }
                    PQclear(result)
                }
            }
        }
        if synced {
            // The sync's own result ends the pipeline.
            while let result = PQgetResult(handle) {
                let status = PQresultStatus(result)
                PQclear(result)
                if status == PGRES_PIPELINE_SYNC { break }
            }
        }
        // Leaving pipeline mode fails only with results unread: the connection is then out of step
        // with the server, and is not used again.
        if PQexitPipelineMode(handle) != 1 { isUnusable = true }
        if let firstError { throw firstError }
        guard let last else { throw failure(nil, sql: lastSQL) }
        roundTrips += 1
        return last
    }

    /// Sends one statement of a pipeline: prepared first when it has parameters and is new.
    private func send(_ statement: Statement, into sent: inout [Sent], preparing: inout [String: String]) throws(BoutiqueError) {
        let parameters = statement.parameters
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
        // The types are part of the key: the same text bound with other types is another statement.
        let key = statement.sql + "\u{0}" + types.map(String.init).joined(separator: ",")
        var name = prepared[key] ?? preparing[key]
        if name == nil, !parameters.isEmpty, prepared.count + preparing.count < Self.preparedLimit {
            let newName = "boutique_\(prepared.count + preparing.count + 1)"
            guard PQsendPrepare(handle, newName, statement.sql, Int32(parameters.count), types) == 1 else {
                throw failure(nil, sql: statement.sql)
            }
            sent.append(.prepare(key: key, name: newName, sql: statement.sql))
            preparing[key] = newName
            name = newName
        }
        // One byte more, so that an empty value still has an address (a null pointer would be NULL).
        buffer.append(0)
        let formats = [Int32](repeating: 1, count: parameters.count)
        let queued: Int32 = buffer.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                let values: [UnsafePointer<CChar>?] = offsets.map { offset in
                    offset.flatMap { offset in chars.baseAddress.map { UnsafePointer($0 + offset) } }
                }
                if let name {
                    return PQsendQueryPrepared(handle, name, Int32(parameters.count), values, lengths, formats, 1)
                }
                return PQsendQueryParams(handle, statement.sql, Int32(parameters.count), types, values, lengths, formats, 1)
            }
        }
        guard queued == 1 else { throw failure(nil, sql: statement.sql) }
        sent.append(.run(sql: statement.sql))
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
