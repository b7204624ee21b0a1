import BoutiqueSQLite
import Foundation

extension Date: QueryBindable {
    /// Stored as REAL seconds since 1970. Integer seconds and ISO-8601 text are read too.
    public static func decode(from decoder: inout RowDecoder) throws(BoutiqueError) -> Date {
        try decodeSeconds(from: &decoder, expected: "Date", toDate: Date.init(timeIntervalSince1970:))
    }

    /// A number of seconds made a date by `toDate` (since 1970 or since 2001), or ISO-8601 text.
    static func decodeSeconds(
        from decoder: inout RowDecoder, expected: String, toDate: (Double) -> Date
    ) throws(BoutiqueError) -> Date {
        switch decoder.currentStorageClass {
        case .real, .integer:
            let seconds = decoder.statement.double(at: decoder.columnIndex)
            decoder.columnIndex += 1
            return toDate(seconds)
        case .text:
            return try ISO8601Representation.decode(from: &decoder)
        default:
            throw decoder.failure(expected: expected)
        }
    }

    public static func encode(_ output: Date) -> DatabaseValue { .real(output.timeIntervalSince1970) }

    public static var sqlType: SQLType { .real }

    /// Seconds since 2001, as `JSONEncoder` writes a date.
    public static var jsonValueForm: JSONValueForm { .dateSeconds }

    /// Stores a date as ISO-8601 text with milliseconds in UTC, `2026-11-29T18:20:00.000Z`:
    /// `@Column(as: Date.ISO8601Representation.self) var startsAt: Date`.
    public enum ISO8601Representation: QueryRepresentable {
        public static func decode(from decoder: inout RowDecoder) throws(BoutiqueError) -> Date {
            guard decoder.currentStorageClass == .text else { throw decoder.failure(expected: "Date (ISO-8601 text)") }
            let text = String(decoding: decoder.statement.textBytes(at: decoder.columnIndex), as: UTF8.self)
            guard let date = ISO8601Parsing.date(from: text) else {
                throw decoder.failure(expected: "Date (ISO-8601 text)")
            }
            decoder.columnIndex += 1
            return date
        }

        public static func encode(_ output: Date) -> DatabaseValue {
            .text(ISO8601Parsing.string(from: output))
        }

        public static var sqlType: SQLType { .text }
    }

    /// Stores a date as REAL seconds since 2001 (Foundation's reference date), the number `JSONEncoder`
    /// writes for a date and Core Data stores: `@Column(as: Date.ReferenceDateRepresentation.self)`.
    /// It is also how a date read out of a JSON document (`jsonExtract(\.joinedAt)`) is read; ISO-8601
    /// text is read too.
    public enum ReferenceDateRepresentation: QueryRepresentable {
        public static func decode(from decoder: inout RowDecoder) throws(BoutiqueError) -> Date {
            try Date.decodeSeconds(
                from: &decoder, expected: "Date (seconds since 2001)", toDate: Date.init(timeIntervalSinceReferenceDate:))
        }

        public static func encode(_ output: Date) -> DatabaseValue { .real(output.timeIntervalSinceReferenceDate) }

        public static var sqlType: SQLType { .real }
    }

    /// Stores a date as a REAL Julian day number, the days since noon in Greenwich on November 24,
    /// 4714 BC, which is what SQLite's `julianday()` returns and reads a number as:
    /// `@Column(as: Date.JulianDayRepresentation.self) var dueAt: Date`.
    public enum JulianDayRepresentation: QueryRepresentable {
        /// The Julian day of 1970-01-01T00:00:00Z.
        static let unixEpochJulianDay = 2440587.5

        public static func decode(from decoder: inout RowDecoder) throws(BoutiqueError) -> Date {
            try Date.decodeSeconds(from: &decoder, expected: "Date (Julian day)") { days in
                Date(timeIntervalSince1970: (days - unixEpochJulianDay) * 86400)
            }
        }

        public static func encode(_ output: Date) -> DatabaseValue {
            .real(output.timeIntervalSince1970 / 86400 + unixEpochJulianDay)
        }

        public static var sqlType: SQLType { .real }
    }

    /// Stores a date as INTEGER seconds since 1970 (fractions are dropped):
    /// `@Column(as: Date.UnixTimeRepresentation.self) var createdAt: Date`.
    public enum UnixTimeRepresentation: QueryRepresentable {
        public static func decode(from decoder: inout RowDecoder) throws(BoutiqueError) -> Date {
            Date(timeIntervalSince1970: Double(try decoder.decodeInt64(expected: "Date (unix time)")))
        }

        public static func encode(_ output: Date) -> DatabaseValue {
            let seconds = output.timeIntervalSince1970.rounded(.down)
            return .integer(seconds.isFinite && abs(seconds) < 9.2e18 ? Int64(seconds) : 0)
        }

        public static var sqlType: SQLType { .integer }

        /// Seconds since 2001, as `JSONEncoder` writes a date.
        public static var jsonValueForm: JSONValueForm { .dateSeconds }
    }
}

/// ISO-8601 formatting and parsing that accepts what SQLite's date functions write too
/// (`2026-11-29 18:20:00`), with or without fractional seconds and zone.
enum ISO8601Parsing {
    static func string(from date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt))
    }

    static func date(from text: String) -> Date? {
        var normalized = text.trimmingCharacters(in: .whitespaces)
        if normalized.count >= 11, normalized[normalized.index(normalized.startIndex, offsetBy: 10)] == " " {
            normalized.replaceSubrange(
                normalized.index(normalized.startIndex, offsetBy: 10)...normalized.index(normalized.startIndex, offsetBy: 10),
                with: "T")
        }
        if normalized.count == 10 { normalized += "T00:00:00" }
        let zoneSigns: Set<Character> = ["+", "-"]
        let hasZone = normalized.hasSuffix("Z") || normalized.dropFirst(19).contains(where: zoneSigns.contains)
        if !hasZone { normalized += "Z" }
        if let date = try? Date(normalized, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) {
            return date
        }
        return try? Date(normalized, strategy: Date.ISO8601FormatStyle())
    }
}
