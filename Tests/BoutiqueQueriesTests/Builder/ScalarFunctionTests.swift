import BoutiqueQueries
import BoutiqueSQLite
import Testing

/// SQLite's scalar functions as methods: each renders its SQL, binds its Swift values, and gives the
/// value SQLite computes, read back as the declared type.
@Suite("Scalar functions")
struct ScalarFunctionTests {
    let db: Connection
    init() throws { db = try makeRemindersDatabase() }

    @Test func stringFunctions() throws {
        let query = Reminder.find(3).select {
            ($0.title.instr("boss"), $0.title.replace("boss", "team"), $0.title.substr(7), $0.title.substr(1, 5))
        }
        #expect(query.sql.hasPrefix(
            #"SELECT instr("reminder"."title", ?), replace("reminder"."title", ?, ?), substr("reminder"."title", ?), substr("reminder"."title", ?, ?)"#))
        #expect(query.bindings.prefix(6) == [.text("boss"), .text("boss"), .text("team"), .integer(7), .integer(1), .integer(5)])
        let row = try #require(try query.fetchOne(db))
        #expect(row.0 == 7)
        #expect(row.1 == "Email team")
        #expect(row.2 == "boss")
        #expect(row.3 == "Email")
        #expect(try Reminder.find(3).select { $0.title.instr("absent") }.fetchOne(db) == 0)
    }

    @Test func trimmingCharacters() throws {
        #expect(try RemindersList.find(1).select { _ in "--ab--".trim("-") }.fetchOne(db) == "ab")
        #expect(try RemindersList.find(1).select { _ in "--ab--".ltrim("-") }.fetchOne(db) == "ab--")
        #expect(try RemindersList.find(1).select { _ in "--ab--".rtrim("-") }.fetchOne(db) == "--ab")
        #expect(try RemindersList.find(1).select { _ in "  ab  ".ltrim() }.fetchOne(db) == "ab  ")
        #expect(try RemindersList.find(1).select { _ in "  ab  ".rtrim() }.fetchOne(db) == "  ab")
    }

    @Test func unicodeGivesTheFirstCodePoint() throws {
        let query = RemindersList.find(1).select { _ in ("é🙂".unicode(), "🙂".unicode(), "".unicode()) }
        #expect(query.sql.hasPrefix("SELECT unicode(?), unicode(?), unicode(?)"))
        let row = try #require(try query.fetchOne(db))
        #expect(row.0 == 0xE9)
        #expect(row.1 == 0x1F642)
        #expect(row.2 == nil)
        #expect(try Reminder.find(3).select { $0.title.unicode() }.fetchOne(db) == Int(UnicodeScalar("E").value))
    }

    @Test func blobsOfAGivenSize() throws {
        let query = RemindersList.find(1).select { _ in (16.randomblob(), 16.randomblob(), 3.zeroblob(), 0.zeroblob()) }
        #expect(query.sql.hasPrefix("SELECT randomblob(?), randomblob(?), zeroblob(?), zeroblob(?)"))
        let row = try #require(try query.fetchOne(db))
        #expect(row.0.count == 16)
        #expect(row.0 != row.1)
        #expect(row.2 == [0, 0, 0])
        #expect(row.3 == [])
        try db.execute("CREATE TABLE asset (id INTEGER PRIMARY KEY, bytes BLOB NOT NULL)")
        try Asset.insert { $0.bytes } values: { 1_024.zeroblob() }.execute(db)
        try Asset.insert { $0.bytes } values: { 8.randomblob() }.execute(db)
        #expect(try Asset.order { $0.id }.select { $0.bytes.length() }.fetchAll(db) == [1_024, 8])
        #expect(try Asset.find(1).select { $0.bytes }.fetchOne(db) == [UInt8](repeating: 0, count: 1_024))
    }

    @Test func plannerHintsKeepTheRows() throws {
        let plain: [Int] = try Reminder.where { $0.listID == 1 }.order { $0.id }.select { $0.id }.fetchAll(db)
        #expect(!plain.isEmpty)
        let weighted = Reminder.where { ($0.listID == 1).likelihood(0.75) }.order { $0.id }.select { $0.id }
        #expect(weighted.sql.contains(#"WHERE likelihood(("reminder"."listID" = ?), 0.75)"#))
        #expect(try weighted.fetchAll(db) == plain)
        let likely = Reminder.where { ($0.listID == 1).likely() }.order { $0.id }.select { $0.id }
        #expect(likely.sql.contains(#"WHERE likely(("reminder"."listID" = ?))"#))
        #expect(try likely.fetchAll(db) == plain)
        let unlikely = Reminder.where { ($0.listID == 1).unlikely() }.order { $0.id }.select { $0.id }
        #expect(unlikely.sql.contains(#"WHERE unlikely(("reminder"."listID" = ?))"#))
        #expect(try unlikely.fetchAll(db) == plain)
        // Whole numbers and tiny fractions are still floating-point literals, which SQLite requires.
        #expect(try Reminder.where { ($0.listID == 1).likelihood(1) }.order { $0.id }.select { $0.id }.fetchAll(db) == plain)
        #expect(try Reminder.where { ($0.listID == 1).likelihood(Float(1e-5)) }.order { $0.id }.select { $0.id }.fetchAll(db) == plain)
        let negativeZero = Reminder.where { ($0.listID == 1).likelihood(-0.0) }.select { $0.id }
        #expect(negativeZero.sql.contains(", 0.0)"))
        #expect(try negativeZero.fetchAll(db).sorted() == plain)
    }

    @Test func aLikelihoodOutsideZeroToOneFailsTheStatement() throws {
        for probability in [1.5, -0.25, .nan, .infinity] {
            let query = Reminder.where { ($0.listID == 1).likelihood(probability) }.select { $0.id }
            #expect {
                try query.fetchAll(db)
            } throws: { error in
                (error as? BoutiqueError).map { "\($0)".contains("must be a constant between 0.0 and 1.0") } ?? false
            }
        }
    }

    @Test func octetLengthCountsUTF8Bytes() throws {
        // "é" is one character and two bytes; the emoji one character (two UTF-16 units) and four bytes.
        let query = RemindersList.find(1).select { _ in ("é🙂".length(), "é🙂".octetLength()) }
        #expect(query.sql.hasPrefix("SELECT length(?), length(CAST(? AS BLOB))"))
        let row = try #require(try query.fetchOne(db))
        #expect(row.0 == 2)
        #expect(row.1 == 6)
    }

    @Test func quoteAndHexShowValues() throws {
        let row = try #require(try Reminder.find(2).select { ("it's".quote(), $0.priority.quote(), "AZ".hex(), $0.priority.hex()) }.fetchOne(db))
        #expect(row.0 == "'it''s'")
        #expect(row.1 == "NULL")
        #expect(row.2 == "415A")
        #expect(row.3 == "")
        #expect(try RemindersList.find(1).select { _ in [UInt8]([0x01, 0xAB]).quote() }.fetchOne(db) == "X'01AB'")
    }

    @Test func nullifAndIfnull() throws {
        let cleared = Reminder.order { $0.id }.select { $0.priority.nullif(2) }
        #expect(cleared.sql.hasPrefix(#"SELECT nullif("reminder"."priority", ?)"#))
        #expect(try cleared.fetchAll(db) == [nil, nil, 3, 1, nil])
        #expect(try Reminder.order { $0.id }.select { $0.title.nullif("Haircut") }.fetchAll(db)
            == ["Groceries", nil, "Email boss", "Plan offsite", "Laundry"])
        let filled = Reminder.order { $0.id }.select { $0.priority.ifnull(0) }
        #expect(filled.sql.hasPrefix(#"SELECT ifnull("reminder"."priority", ?)"#))
        let priorities: [Int] = try filled.fetchAll(db)
        #expect(priorities == [2, 0, 3, 1, 2])
        let fromColumn: [Int] = try Reminder.order { $0.id }.select { $0.priority.ifnull($0.listID) }.fetchAll(db)
        #expect(fromColumn == [2, 1, 3, 1, 2])
        let stillOptional: [Int?] = try Reminder.order { $0.id }.select { $0.priority.ifnull($0.priority.nullif(2)) }.fetchAll(db)
        #expect(stillOptional == [2, nil, 3, 1, 2])
    }

    @Test func valuesAreBoundNeverSpliced() throws {
        let hostile = "x'); DROP TABLE reminder; --"
        let query = Reminder.select { $0.title.replace(hostile, hostile).trim(hostile) }
        #expect(!query.sql.contains("DROP"))
        #expect(try query.fetchAll(db).count == 5)
        #expect(try Reminder.all.fetchAll(db).count == 5)
    }
}

/// A table with a blob column, for the blob functions.
@Table private struct Asset {
    let id: Int
    var bytes: [UInt8]
}
