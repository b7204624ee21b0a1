/// Options a `CREATE TABLE` statement declares after its columns.
///
/// ```swift
/// let options: TableOptions = [.strict, .withoutRowID]   // … ) STRICT, WITHOUT ROWID
/// ```
public struct TableOptions: OptionSet, Hashable, Sendable {
    public let rawValue: Int

    public init(rawValue: Int) { self.rawValue = rawValue }

    /// `STRICT`: SQLite checks each value against the column's declared type.
    public static let strict = TableOptions(rawValue: 1 << 0)

    /// `WITHOUT ROWID`: rows are stored by primary key, which the table must have.
    public static let withoutRowID = TableOptions(rawValue: 1 << 1)
}
