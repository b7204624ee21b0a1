/// A position in a database's change log: the `change_id` of the latest COMMIT row a reader has seen.
///
/// ```swift
/// let token = try await db.currentToken
/// // … later, possibly in another launch of the app:
/// for try await transaction in db.changes(since: token) { apply(transaction) }
/// ```
///
/// Tokens only grow: a later commit has a larger token, so comparing two tokens says whether anything
/// was committed between them. They encode as a bare integer, to be stored anywhere.
public struct ChangeToken: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// The `change_id` of the COMMIT row (0 before the first commit).
    public let changeID: Int64

    /// The token of the COMMIT row whose `change_id` is `changeID`.
    public init(changeID: Int64) {
        self.changeID = changeID
    }

    /// Before every change: `changes(since: .beginning)` reads the whole log (it throws once the log
    /// has been pruned, since the first changes are gone).
    public static let beginning = ChangeToken(changeID: 0)

    public static func < (lhs: ChangeToken, rhs: ChangeToken) -> Bool { lhs.changeID < rhs.changeID }

    public init(from decoder: any Decoder) throws {
        changeID = try decoder.singleValueContainer().decode(Int64.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(changeID)
    }

    public var description: String { "ChangeToken(\(changeID))" }
}
