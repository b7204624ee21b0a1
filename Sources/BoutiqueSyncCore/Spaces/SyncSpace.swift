/// Where a synced row lives inside its tenant, which decides who sees it.
///
/// ```swift
/// let list = SyncSpace.shared(table: "reminderslist", key: .integer(7))
/// print(list.rawValue)            // "s:reminderslist:i7"
/// SyncSpace(rawValue: "p:ana")    // ana's private space
/// ```
///
/// - ``common``: every user of the tenant (every row when the server has no rules).
/// - ``private(user:)``: the devices of one user only.
/// - ``shared(table:key:)``: a root row (a reminders list) and the rows that follow it, seen by the
///   space's members.
///
/// The raw value is what the server stores and the wire carries: one string, compared byte by byte.
/// Table names are the lowercased names sync uses everywhere.
public struct SyncSpace: Hashable, Sendable, Codable, RawRepresentable, Comparable, CustomStringConvertible {
    /// The space's stored form: `""` for the common space, `p:USER` for a private one, `s:TABLE:KEY`
    /// for a shared one (KEY is `i` and a decimal integer, `t` and the text, `r` and a double's bit
    /// pattern, or `b` and base64).
    public let rawValue: String

    /// A space from its stored form; `nil` for a form no space has.
    public init?(rawValue: String) {
        guard rawValue.isEmpty || rawValue.hasPrefix("p:") || Self.sharedParts(of: rawValue) != nil else { return nil }
        self.rawValue = rawValue
    }

    /// The tenant's common space.
    public static let common = SyncSpace(unchecked: "")

    /// `user`'s private space.
    public static func `private`(user: String) -> SyncSpace { SyncSpace(unchecked: "p:" + user) }

    /// The space of the root row `key` of `table` (lowercased, as sync names tables).
    public static func shared(table: String, key: DatabaseValue) -> SyncSpace {
        SyncSpace(unchecked: "s:" + table + ":" + Self.encode(key))
    }

    private init(unchecked rawValue: String) { self.rawValue = rawValue }

    /// Whether this is the tenant's common space.
    public var isCommon: Bool { rawValue.isEmpty }

    /// The user of a private space.
    public var privateUser: Substring? { rawValue.hasPrefix("p:") ? rawValue.dropFirst(2) : nil }

    /// The root table and key of a shared space.
    public var root: (table: String, key: DatabaseValue)? { Self.sharedParts(of: rawValue) }

    /// The space in words, for messages: "the space of reminderslist 7".
    public var description: String {
        if isCommon { return "the common space" }
        if let user = privateUser { return "\(user)'s private space" }
        if let root { return "the space of \(root.table) \(root.key)" }
        return rawValue
    }

    /// Whether two spaces are one: their stored forms are the same bytes, as the store compares them.
    /// (`String`'s `==` takes canonically equivalent texts for equal: the private spaces of two users
    /// whose names differ only in how an accent is spelled would be one space here and two in the store.)
    public static func == (lhs: SyncSpace, rhs: SyncSpace) -> Bool { lhs.rawValue.utf8.elementsEqual(rhs.rawValue.utf8) }

    public func hash(into hasher: inout Hasher) {
        // The same bytes fed the same way whether the string is stored contiguously or not.
        let hashed: Void? = rawValue.utf8.withContiguousStorageIfAvailable { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        if hashed == nil { Array(rawValue.utf8).withUnsafeBytes { hasher.combine(bytes: $0) } }
        hasher.combine(rawValue.utf8.count)
    }

    /// Byte order of the stored forms: the order a snapshot goes through a user's spaces in.
    public static func < (lhs: SyncSpace, rhs: SyncSpace) -> Bool { lhs.rawValue.utf8.lexicographicallyPrecedes(rhs.rawValue.utf8) }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let space = SyncSpace(rawValue: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a space"))
        }
        self = space
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    // MARK: Keys

    private static func encode(_ key: DatabaseValue) -> String {
        switch key {
        case .null: return "n"
        case .integer(let number): return "i" + String(number)
        case .real(let number): return "r" + String(number.bitPattern)
        case .text(let text): return "t" + text
        case .blob(let bytes): return "b" + Base64.encode(bytes)
        }
    }

    private static func decodeKey(_ text: Substring) -> DatabaseValue? {
        guard let tag = text.first else { return nil }
        let body = text.dropFirst()
        switch tag {
        case "n": return body.isEmpty ? .null : nil
        case "i": return Int64(body).map { .integer($0) }
        case "r": return UInt64(body).map { .real(Double(bitPattern: $0)) }
        case "t": return .text(String(body))
        case "b": return Base64.decode(String(body)).map { .blob($0) }
        default: return nil
        }
    }

    /// `s:TABLE:KEY`. Table names the server accepts hold no `:` (they are SQL identifiers a device
    /// named), so the first `:` after the prefix ends the table.
    private static func sharedParts(of rawValue: String) -> (table: String, key: DatabaseValue)? {
        guard rawValue.hasPrefix("s:") else { return nil }
        let rest = rawValue.dropFirst(2)
        guard let colon = rest.firstIndex(of: ":"), colon != rest.startIndex,
            let key = decodeKey(rest[rest.index(after: colon)...])
        else { return nil }
        return (String(rest[..<colon]), key)
    }
}
