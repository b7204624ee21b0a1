import BoutiqueQueries
import BoutiqueSQLite
import Testing

/// `hasPrefix` and `hasSuffix` on a column that holds the empty string.
@Suite("Prefix and suffix of empty text")
struct EmptyTextMatchingTests {
    @Test func emptyTextHasNoNonEmptyPrefixOrSuffixAndHasTheEmptyOne() throws {
        let connection = try Connection(path: ":memory:")
        try connection.execute(FuzzModels.schema)
        try connection.execute("INSERT INTO reminder VALUES (1, '', 0, NULL, 1), (2, 'abc', 0, NULL, 1)")
        typealias Reminder = FuzzModels.Reminder
        func ids(_ query: Select<Reminder.TableColumns, Reminder>) throws -> [Int] {
            try query.order { $0.id }.fetchAll(connection).map(\.id)
        }
        #expect(try ids(Reminder.where { !$0.title.hasPrefix("a") }) == [1])
        #expect(try ids(Reminder.where { !$0.title.hasSuffix("c") }) == [1])
        #expect(try ids(Reminder.where { $0.title.hasPrefix("") }) == [1, 2])
        #expect(try ids(Reminder.where { $0.title.hasSuffix("") }) == [1, 2])
    }
}
