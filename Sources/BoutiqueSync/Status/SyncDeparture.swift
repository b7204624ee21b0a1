/// A row that left what this user sees because someone else moved it: sync took it off the device.
///
/// On a server with rules a row lives in one space at a time. When another user moves it to a space
/// this user is not in (an editor moves a reminder from the owner's list to a list of her own), the
/// device deletes it, as a remote change that is never pushed back, and reports it through
/// ``BoutiqueSync/departures``:
///
/// ```swift
/// for await departure in sync.departures {
///     showBanner("A reminder was moved to a list you don't see")
///     log.info("\(departure.table) \(departure.key) left: \(departure.row)")
/// }
/// ```
///
/// A departure names the row only: not who moved it, nor where it went (that is the other space's to
/// tell). Rows that go because the user left a whole space (unshared) are not departures; nor are rows
/// this device never showed.
public struct SyncDeparture: Sendable, Hashable {
    /// The table's name, lowercased as sync carries it.
    public var table: String
    /// The row's primary key.
    public var key: DatabaseValue
    /// The row as this device showed it when it left, by column name as the table declares it.
    public var row: [String: DatabaseValue]

    /// A departure.
    ///
    /// ```swift
    /// let departure = SyncDeparture(table: "reminder", key: .text(id), row: ["title": .text("Milk")])
    /// ```
    public init(table: String, key: DatabaseValue, row: [String: DatabaseValue]) {
        self.table = table
        self.key = key
        self.row = row
    }

    /// The row as a value of the app's `@Table` type (see ``SyncLoss/values(as:)``).
    ///
    /// ```swift
    /// let reminder = try departure.row(as: Reminder.self)
    /// ```
    public func row<T: Table>(as type: T.Type) throws -> T {
        try SyncRowValues.decode(row, as: type, source: table)
    }
}
