import BoutiqueQueries
import BoutiqueSQLite
import Testing

/// Aggregates with `FILTER (WHERE …)`, `DISTINCT` and, where SQLite allows it, `ORDER BY`.
@Suite("Aggregate options")
struct AggregateOptionTests {
    let db: Connection
    init() throws { db = try makeRemindersDatabase() }

    @Test func filterCountsAndSumsOnlyMatchingRows() throws {
        let query = Reminder.all.group { $0.listID }.order { $0.listID }.select {
            ($0.listID, $0.id.count(filter: $0.isDone), $0.priority.sum(filter: !$0.isDone), .count(filter: $0.isDone))
        }
        #expect(query.sql.hasPrefix(
            #"SELECT "reminder"."listID", count("reminder"."id") FILTER (WHERE "reminder"."isDone"), sum("reminder"."priority") FILTER (WHERE (NOT "reminder"."isDone")), count(*) FILTER (WHERE "reminder"."isDone") FROM"#))
        let rows = try query.fetchAll(db)
        #expect(rows.map(\.0) == [1, 2])
        #expect(rows.map(\.1) == [2, 0])
        #expect(rows.map(\.2) == [2, 4])
        #expect(rows.map(\.3) == [2, 0])
    }

    @Test func countOfRowsAsAnImplicitMember() throws {
        let done = Reminder.select { .count(filter: $0.isDone) }
        #expect(done.sql == #"SELECT count(*) FILTER (WHERE "reminder"."isDone") FROM "reminder""#)
        #expect(try done.fetchOne(db) == 2)
        let all = Reminder.select { _ in .count() }
        #expect(all.sql == #"SELECT count(*) FROM "reminder""#)
        #expect(try all.fetchOne(db) == 5)
    }

    @Test func filterOnEveryAggregate() throws {
        let query = Reminder.all.select {
            (
                $0.priority.avg(filter: $0.listID == 1), $0.priority.max(filter: $0.listID == 2),
                $0.priority.min(filter: $0.listID == 2), $0.priority.total(filter: $0.listID == 3),
                $0.title.groupConcat(" & ", filter: $0.listID == 2)
            )
        }
        #expect(query.sql.contains(#"avg("reminder"."priority") FILTER (WHERE ("reminder"."listID" = ?))"#))
        #expect(query.sql.contains(#"group_concat("reminder"."title", ?) FILTER (WHERE ("reminder"."listID" = ?))"#))
        let row = try #require(try query.fetchOne(db))
        #expect(row.0 == 2.0)
        #expect(row.1 == 3 && row.2 == 1)
        #expect(row.3 == 0)
        #expect(row.4 == "Email boss & Plan offsite")
    }

    @Test func distinctAggregates() throws {
        let row = try #require(try Reminder.all.select {
            ($0.priority.sum(distinct: true), $0.priority.avg(distinct: true), $0.priority.total(distinct: true))
        }.fetchOne(db))
        #expect(row.0 == 6 && row.1 == 2.0 && row.2 == 6.0)
        let names = Reminder.all.select { $0.listID.cast(as: String.self).groupConcat(distinct: true) }
        #expect(names.sql.hasPrefix(#"SELECT group_concat(DISTINCT CAST("reminder"."listID" AS TEXT)) FROM"#))
        #expect(try names.fetchOne(db) == "1,2")
    }

    @Test func groupConcatWithoutSeparatorUsesCommas() throws {
        let query = Reminder.where { $0.listID == 2 }.select { $0.title.groupConcat() }
        #expect(query.sql.hasPrefix(#"SELECT group_concat("reminder"."title") FROM"#))
        #expect(try query.fetchOne(db) == "Email boss,Plan offsite")
    }

    /// ORDER BY inside an aggregate needs SQLite 3.44. On an older SQLite the statement is refused when
    /// it is prepared; on a newer one the values come in order.
    @Test func orderInsideAnAggregate() throws {
        let query = Reminder.all.select { $0.title.groupConcat(", ", order: $0.title.desc()) }
        #expect(query.sql.hasPrefix(#"SELECT group_concat("reminder"."title", ? ORDER BY "reminder"."title" DESC) FROM"#))
        if try sqliteSupportsOrderedAggregates(db) {
            #expect(try query.fetchOne(db) == "Plan offsite, Laundry, Haircut, Groceries, Email boss")
        } else {
            #expect { try query.fetchOne(db) } throws: { "\($0)".contains(#"near "ORDER": syntax error"#) }
        }
    }
}

/// `true` when the connection's SQLite (3.44 or later) accepts ORDER BY inside an aggregate call.
func sqliteSupportsOrderedAggregates(_ db: Connection) throws -> Bool {
    let statement = try db.prepare("SELECT sqlite_version()")
    _ = try statement.step()
    let parts = try statement.string(at: 0).split(separator: ".").compactMap { Int($0) }
    return parts.count >= 2 && (parts[0], parts[1]) >= (3, 44)
}
