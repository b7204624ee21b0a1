import BoutiqueSQLite

/// The one error type BoutiqueDB's API throws.
///
/// ```swift
/// do {
///     try await db.write { conn in ... }
/// } catch let error as BoutiqueError {
///     switch error {
///     case .sql(let code, let message): print("SQLite error (\(code)): \(message)")
///     case .migrationFailed(let id, let message): print("Migration '\(id)' failed: \(message)")
///     case .transactionInProgress: print("Write conflict occurred.")
///     default: print("BoutiqueDB error: \(error)")
///     }
/// }
/// ```
///
/// The methods apps call are declared with plain `throws` and throw nothing else, so that
/// `catch let error as BoutiqueError` is a real cast: with `throws(BoutiqueError)` the compiler calls
/// the cast always true, and Swift 6.3's compiler crashes on that pattern followed by some calls (a `try await`
/// on a force-unwrapped value, a rethrowing call). Row decoding, which generated code calls once per
/// column, keeps the typed form.
///
/// It lives in the query layer, the lowest layer that throws it (decoding a row), and is re-exported by
/// `BoutiqueDB`.
///
/// The enum is `indirect` so that a value is one word: every `throws(BoutiqueError)` call copies the
/// error out of the callee at each `try`, and generated decoders make one such call per column. At its
/// unboxed size (65 bytes) those copies were a third of the code `@Table` expands to; errors are rare,
/// so the box they now allocate costs nothing that matters.
public indirect enum BoutiqueError: Error, Sendable, Hashable {
    /// SQLite refused a statement or a file. `code` is the extended result code (`code.primary` is the
    /// family); `message` prints SQLite's message and carries the failing SQL in `message.sql`.
    case sql(code: ResultCode, message: SQLMessage)

    /// A migration threw or broke a constraint; the database is left as the last good migration left it.
    case migrationFailed(id: String, message: String)

    /// A write could not start: another connection held the write lock past the busy timeout, or the
    /// write was started from inside another write on the same database.
    case transactionInProgress

    /// The database, or the connection, was used after it was closed.
    case databaseClosed

    /// A row could not be decoded into a Swift value.
    case decoding(DecodingFailure)

    /// The migration history recorded in the file does not match the plan: an id the plan does not know,
    /// or ids applied in another order. The file is left untouched.
    case migrationHistoryMismatch(applied: [String], planned: [String])

    /// The migration plan names the same id twice.
    case duplicateMigrationID(String)

    /// An argument was rejected before anything was changed (an unusable path, a bad option).
    case invalidArgument(String)

    /// The task was cancelled; a write in progress was rolled back.
    case cancelled

    /// A folder or file the database needs could not be found or created (no Application Support folder,
    /// a folder that cannot be made, an App Group without a container). `path` is where, or, when the
    /// system could not say where, what was looked for (`Documents`, the App Group's identifier).
    /// Nothing was opened or changed.
    case fileSystem(path: String, message: String)

    /// The change log no longer holds every change after the position asked for: older transactions
    /// were pruned. `requested` is the `change_id` read from (a change token's), `oldestAvailable` the
    /// earliest position that can still be read. A reader that fell this far behind has to rebuild what
    /// it derived from the changes, then follow the log from `oldestAvailable` (or from the current token).
    case changesPruned(requested: Int64, oldestAvailable: Int64)

    /// A table cannot be synced as configured: it does not exist, has no key that is unique across
    /// devices (an `INTEGER PRIMARY KEY`, a rowid-only or a composite key), has `UNIQUE` constraints
    /// besides its key, or the database does not record full change images. Nothing was changed.
    case syncConfiguration(table: String, reason: String)

    /// A synced table's schema changed in a way devices on other app versions cannot follow (a column
    /// removed, renamed or retyped, the key changed, a new column that is `NOT NULL` without a default).
    /// Synced schemas may only grow.
    case syncSchemaChange(table: String, reason: String)

    /// The sync server sent a reply that does not make sense, or (in a server's own code) a token could
    /// not be verified. Nothing was applied locally. A refusal the server answers a device with (an
    /// expired token, a change the user may not make, an app too old) reaches the app as BoutiqueSync's
    /// `SyncRefusal`, whose reason tells them apart.
    case syncRefused(reason: String)

    /// The sync server could not be reached, or no reply came back. Local data is unchanged and the
    /// request can be retried.
    case syncUnavailable(reason: String)

    /// An attachment's bytes are not on this device: never stored here, or removed. `id` is the
    /// attachment's ``/BoutiqueDB/Attachment/id``.
    case attachmentNotFound(id: String)

    /// The bytes stored on this device under an attachment's id are not the bytes it names (their size
    /// or SHA-256 differs): the file was damaged or changed outside BoutiqueDB. They are never returned.
    /// Storing the right bytes again replaces a file of the wrong size.
    case attachmentDamaged(id: String, reason: String)

    /// A row points at an attachment whose bytes have not reached the sync server yet (the device that
    /// stored them has not uploaded them all): fetching it again later, or waiting, gets them.
    case attachmentNotUploaded(id: String)
}

extension BoutiqueError {
    /// SQLite's message for a failed statement, with the SQL that failed.
    ///
    /// Prints as the message alone; compares equal to a string literal with the same text.
    public struct SQLMessage: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
        /// SQLite's message.
        public var text: String
        /// The statement that failed, when there was one.
        public var sql: String?

        /// SQLite's message `text`, and the statement that failed.
        public init(_ text: String, sql: String? = nil) {
            self.text = text
            self.sql = sql
        }

        public init(stringLiteral value: String) { self.init(value) }

        public var description: String { text }

        public static func == (lhs: SQLMessage, rhs: SQLMessage) -> Bool { lhs.text == rhs.text && lhs.sql == rhs.sql }
    }

    /// Why a column value could not become the Swift value asked for.
    public struct DecodingFailure: Sendable, Hashable, CustomStringConvertible {
        /// The table (or query) the row came from.
        public var table: String
        /// The column that failed.
        public var column: String
        /// The Swift type that was expected, e.g. `"UUID"`.
        public var expectedType: String
        /// What was found instead, e.g. `"NULL"`, `"TEXT 'abc'"`, or a parser's message.
        public var found: String

        /// A failure to read `column` of `table` as `expectedType`, having found `found`.
        public init(table: String, column: String, expectedType: String, found: String) {
            self.table = table
            self.column = column
            self.expectedType = expectedType
            self.found = found
        }

        public var description: String {
            "cannot decode \(table).\(column) as \(expectedType): found \(found)"
        }
    }

    /// Wraps a ``/BoutiqueSQLite/SQLiteError``; a closed connection becomes ``databaseClosed``.
    public init(_ error: SQLiteError) {
        if error.code == .misuse, error.message.hasSuffix("is closed") {
            self = .databaseClosed
        } else {
            self = .sql(code: error.extendedCode, message: SQLMessage(error.message, sql: error.sql))
        }
    }

    /// The extended result code for ``sql(code:message:)``, `nil` otherwise.
    public var resultCode: ResultCode? {
        if case .sql(let code, _) = self { code } else { nil }
    }
}

extension BoutiqueError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .sql(let code, let message):
            var text = "SQLite error \(code.rawValue): \(message.text)"
            if let sql = message.sql { text += " — while running: \(sql)" }
            return text
        case .migrationFailed(let id, let message): return "migration '\(id)' failed: \(message)"
        case .transactionInProgress: return "a write transaction is already in progress"
        case .databaseClosed: return "the database is closed"
        case .decoding(let failure): return failure.description
        case .migrationHistoryMismatch(let applied, let planned):
            return "the database's migrations \(applied) do not match the plan \(planned)"
        case .duplicateMigrationID(let id): return "the migration plan names '\(id)' twice"
        case .invalidArgument(let message): return "invalid argument: \(message)"
        case .cancelled: return "the operation was cancelled"
        case .fileSystem(let path, let message): return "file system error at \(path): \(message)"
        case .changesPruned(let requested, let oldest):
            return "the change log was pruned past change \(requested); the oldest position still readable is \(oldest)"
        case .syncConfiguration(let table, let reason): return "table '\(table)' cannot be synced: \(reason)"
        case .syncSchemaChange(let table, let reason): return "synced table '\(table)' changed incompatibly: \(reason)"
        case .syncRefused(let reason): return "the sync server refused the request: \(reason)"
        case .syncUnavailable(let reason): return "the sync server is unavailable: \(reason)"
        case .attachmentNotFound(let id): return "the bytes of attachment \(id) are not on this device"
        case .attachmentDamaged(let id, let reason): return "the bytes stored for attachment \(id) are damaged: \(reason)"
        case .attachmentNotUploaded(let id): return "the bytes of attachment \(id) have not reached the sync server yet"
        }
    }
}
