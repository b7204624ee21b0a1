import BoutiqueQueries
import BoutiqueSQLite
import BoutiqueTestSupport

/// Two filtered selections of `reminder.listID` combined by `UNION`, `UNION ALL`, `INTERSECT` or
/// `EXCEPT`. A compound has no order of its own, so both sides' rows are compared sorted.
struct CompoundProgram: FuzzProgram {
    enum Operator: CaseIterable {
        case union, unionAll, intersect, except

        var sql: String {
            switch self {
            case .union: "UNION"
            case .unionAll: "UNION ALL"
            case .intersect: "INTERSECT"
            case .except: "EXCEPT"
            }
        }
    }

    var first: [ReminderFilter]
    var second: [ReminderFilter]
    var combination: Operator

    static func random(_ random: inout SeededRandom, data: FuzzData) -> CompoundProgram {
        CompoundProgram(
            first: (0..<random.int(in: 0...2)).map { _ in .random(&random, data: data) },
            second: (0..<random.int(in: 0...2)).map { _ in .random(&random, data: data) },
            combination: random.pick(Operator.allCases))
    }

    private static func selection(_ filters: [ReminderFilter]) -> Select<FuzzModels.Reminder.TableColumns, Int> {
        var query = FuzzModels.Reminder.all
        for filter in filters { query = query.where { filter.expression($0) } }
        return query.select { $0.listID }
    }

    func builderRows(_ connection: Connection) throws -> [[DatabaseValue]] {
        let lhs = Self.selection(first)
        let rhs = Self.selection(second)
        let compound = switch combination {
        case .union: lhs.union(rhs)
        case .unionAll: lhs.union(all: true, rhs)
        case .intersect: lhs.intersect(rhs)
        case .except: lhs.except(rhs)
        }
        return try compound.fetchAll(connection).sorted().map { [.integer(Int64($0))] }
    }

    func handWritten() -> (sql: String, arguments: [DatabaseValue]) {
        var arguments: [DatabaseValue] = []
        let lhs = "SELECT r.listID FROM reminder AS r" + whereClause(first.map { $0.sql("r", &arguments) })
        let rhs = "SELECT r.listID FROM reminder AS r" + whereClause(second.map { $0.sql("r", &arguments) })
        return ("SELECT * FROM (\(lhs) \(combination.sql) \(rhs)) ORDER BY 1", arguments)
    }
}

/// `reminder` grouped by list: per group a filtered count, a distinct count, a filtered sum (which
/// overflows on the extreme priorities, failing both ways) and a maximum, with a `HAVING` on the count.
struct GroupedAggregateProgram: FuzzProgram {
    var filters: [ReminderFilter]
    var counted: ReminderFilter
    var summed: ReminderFilter
    var minimumCount: Int?

    static func random(_ random: inout SeededRandom, data: FuzzData) -> GroupedAggregateProgram {
        GroupedAggregateProgram(
            filters: (0..<random.int(in: 0...1)).map { _ in .random(&random, data: data) },
            counted: .random(&random, data: data), summed: .random(&random, data: data),
            minimumCount: random.chance(30) ? random.int(in: 0...3) : nil)
    }

    func builderRows(_ connection: Connection) throws -> [[DatabaseValue]] {
        var query = FuzzModels.Reminder.all
        for filter in filters { query = query.where { filter.expression($0) } }
        var grouped = query.group(by: \.listID)
        if let minimumCount { grouped = grouped.having { $0.id.count() >= minimumCount } }
        let rows = try grouped.order(by: \.listID).select {
            (
                $0.listID, $0.id.count(filter: counted.expression($0)), $0.isDone.count(distinct: true),
                $0.priority.sum(filter: summed.expression($0)), $0.title.max()
            )
        }.fetchAll(connection)
        return rows.map { row in
            [
                .integer(Int64(row.0)), .integer(Int64(row.1)), .integer(Int64(row.2)),
                row.3.map { .integer(Int64($0)) } ?? .null, row.4.map { .text($0) } ?? .null,
            ]
        }
    }

    func handWritten() -> (sql: String, arguments: [DatabaseValue]) {
        var arguments: [DatabaseValue] = []
        let countFilter = counted.sql("r", &arguments)
        let sumFilter = summed.sql("r", &arguments)
        var sql = "SELECT r.listID, count(r.id) FILTER (WHERE \(countFilter)), count(DISTINCT r.isDone), "
            + "sum(r.priority) FILTER (WHERE \(sumFilter)), max(r.title) FROM reminder AS r"
        sql += whereClause(filters.map { $0.sql("r", &arguments) })
        sql += " GROUP BY r.listID"
        if let minimumCount {
            arguments.append(.integer(Int64(minimumCount)))
            sql += " HAVING count(r.id) >= ?"
        }
        return (sql + " ORDER BY r.listID", arguments)
    }
}
