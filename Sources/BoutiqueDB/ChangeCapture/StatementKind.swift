/// What a statement does to the capture's bookkeeping, read from the start of its SQL text.
///
/// ```swift
/// StatementKind(text: "ROLLBACK TO SAVEPOINT \"boutique_statement\"")   // .rollbackTo("boutique_statement")
/// StatementKind(text: "ALTER TABLE note ADD COLUMN isPinned")            // .schemaChange
/// ```
///
/// Only the leading keywords and one name are read; comments and whitespace before them are skipped.
/// Savepoint names compare case-insensitively, as SQLite compares them.
enum StatementKind: Equatable {
    /// `SAVEPOINT name`.
    case savepoint(String)
    /// `RELEASE [SAVEPOINT] name`.
    case release(String)
    /// `ROLLBACK [TRANSACTION] TO [SAVEPOINT] name`.
    case rollbackTo(String)
    /// `CREATE …`, `DROP …`, `ALTER …`: the statement may change `sqlite_schema`.
    case schemaChange
    /// A trigger program's start, which SQLite traces as a comment (`-- TRIGGER name`).
    case triggerProgram
    /// `INSERT`, `UPDATE`, `DELETE`, `REPLACE`, `SELECT`, `VALUES`, `WITH …`: reads and writes rows, and
    /// never the schema.
    case rows
    /// Anything else (`PRAGMA`, `ANALYZE`, `BEGIN`, …), which may change the schema.
    case other

    /// Whether the statement may change `sqlite_schema` or take changes to it back.
    var mayChangeSchema: Bool {
        switch self {
        case .rows, .triggerProgram, .savepoint, .release: false
        case .schemaChange, .rollbackTo, .other: true
        }
    }

    init(text: UnsafePointer<CChar>) {
        var scanner = SQLScanner(text)
        if scanner.startsWithComment { self = .triggerProgram; return }
        scanner.skipTrivia()
        // Most statements are INSERT, UPDATE, DELETE or SELECT: one byte decides the first two.
        switch scanner.peekUppercased {
        case UInt8(ascii: "I"), UInt8(ascii: "U"), UInt8(ascii: "W"): self = .rows; return
        case UInt8(ascii: "S"), UInt8(ascii: "R"), UInt8(ascii: "C"), UInt8(ascii: "D"), UInt8(ascii: "A"), UInt8(ascii: "V"): break
        default: self = .other; return
        }
        let first = scanner.keyword()
        switch first {
        case "SELECT", "DELETE", "REPLACE", "VALUES":
            self = .rows
        case "CREATE", "DROP", "ALTER":
            self = .schemaChange
        case "SAVEPOINT":
            self = scanner.name().map(StatementKind.savepoint) ?? .other
        case "RELEASE":
            scanner.skipKeyword("SAVEPOINT")
            self = scanner.name().map(StatementKind.release) ?? .other
        case "ROLLBACK":
            scanner.skipKeyword("TRANSACTION")
            guard scanner.skipKeyword("TO") else { self = .other; return }
            scanner.skipKeyword("SAVEPOINT")
            self = scanner.name().map(StatementKind.rollbackTo) ?? .other
        default:
            self = .other
        }
    }
}

extension StatementKind {
    /// The table an `ALTER TABLE [schema.]name …` statement alters, lowercased; `nil` for other text.
    static func alteredTable(in text: UnsafePointer<CChar>) -> String? {
        var scanner = SQLScanner(text)
        guard scanner.keyword() == "ALTER", scanner.skipKeyword("TABLE"), let first = scanner.name() else { return nil }
        return scanner.skipDot() ? scanner.name() : first
    }
}

/// Reads keywords and identifiers from NUL-terminated SQL text, without copying it.
private struct SQLScanner {
    private var cursor: UnsafePointer<UInt8>

    init(_ text: UnsafePointer<CChar>) {
        cursor = UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self)
    }

    private var current: UInt8 { cursor.pointee }
    private func at(_ offset: Int) -> UInt8 { cursor[offset] }

    var startsWithComment: Bool { current == UInt8(ascii: "-") && at(1) == UInt8(ascii: "-") }

    var peekUppercased: UInt8 { Self.uppercased(current) }

    /// Skips whitespace, `-- …` and `/* … */` comments.
    mutating func skipTrivia() {
        while current != 0 {
            if Self.isSpace(current) {
                cursor += 1
            } else if current == UInt8(ascii: "-"), at(1) == UInt8(ascii: "-") {
                while current != 0, current != UInt8(ascii: "\n") { cursor += 1 }
            } else if current == UInt8(ascii: "/"), at(1) == UInt8(ascii: "*") {
                cursor += 2
                while current != 0, !(current == UInt8(ascii: "*") && at(1) == UInt8(ascii: "/")) { cursor += 1 }
                if current != 0 { cursor += 2 }
            } else {
                return
            }
        }
    }

    /// The next bare word, uppercased.
    mutating func keyword() -> String {
        skipTrivia()
        var bytes: [UInt8] = []
        while Self.isWordByte(current) {
            bytes.append(Self.uppercased(current))
            cursor += 1
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Skips `word` when it comes next; `true` when it did.
    @discardableResult
    mutating func skipKeyword(_ word: String) -> Bool {
        let saved = cursor
        if keyword() == word { return true }
        cursor = saved
        return false
    }

    /// Skips a `.` when it comes next (between a schema's name and an object's); `true` when it did.
    mutating func skipDot() -> Bool {
        skipTrivia()
        guard current == UInt8(ascii: ".") else { return false }
        cursor += 1
        return true
    }

    /// The next identifier, bare or quoted (`"…"`, `[…]`, `` `…` ``, `'…'`), lowercased for comparing.
    mutating func name() -> String? {
        skipTrivia()
        var bytes: [UInt8] = []
        let open = current
        let close: UInt8? =
            switch open {
            case UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "`"): open
            case UInt8(ascii: "["): UInt8(ascii: "]")
            default: nil
            }
        if let close {
            cursor += 1
            while current != 0 {
                if current == close {
                    // A doubled quote stands for one quote character; brackets have no escape.
                    if close != UInt8(ascii: "]"), at(1) == close {
                        bytes.append(close)
                        cursor += 2
                        continue
                    }
                    break
                }
                bytes.append(current)
                cursor += 1
            }
        } else {
            while Self.isWordByte(current) {
                bytes.append(current)
                cursor += 1
            }
        }
        guard !bytes.isEmpty else { return nil }
        return String(decoding: bytes, as: UTF8.self).lowercased()
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (byte >= 0x09 && byte <= 0x0D)
    }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: "$") || byte >= 0x80
    }

    private static func uppercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") ? byte - 32 : byte
    }
}
