import BoutiqueQueries
import BoutiqueSQLite
import BoutiqueTestSupport

/// One random query, run twice: through the query builder, and as SQL written by hand from the same
/// description. Both give their rows as plain values.
protocol FuzzProgram {
    static func random(_ random: inout SeededRandom, data: FuzzData) -> Self
    func builderRows(_ connection: Connection) throws -> [[DatabaseValue]]
    func handWritten() -> (sql: String, arguments: [DatabaseValue])
}

private let reminderColumns = "r.id, r.title, r.isDone, r.priority, r.listID"
private let listColumns = "l.id, l.name"

func whereClause(_ conditions: [String]) -> String {
    conditions.isEmpty ? "" : " WHERE " + conditions.map { "(\($0))" }.joined(separator: " AND ")
}

/// Applies ordering keys one `order` call at a time, or two or three per call, as the random says.
private func groupsOfKeys<T>(_ keys: [T], _ random: inout SeededRandom) -> [[T]] {
    var groups: [[T]] = []
    var index = 0
    while index < keys.count {
        let size = min(keys.count - index, random.int(in: 1...3))
        groups.append(Array(keys[index..<(index + size)]))
        index += size
    }
    return groups
}

/// `reminder` alone: filters, ordering keys, a limit, and one of several shapes of result.
struct SingleTableProgram: FuzzProgram {
    enum Shape: CaseIterable { case rows, titles, idAndPriority, count }
    var filters: [ReminderFilter]
    var orderGroups: [[ReminderOrder]]
    var limit: FuzzLimit?
    var shape: Shape

    static func random(_ random: inout SeededRandom, data: FuzzData) -> SingleTableProgram {
        let filters = (0..<random.pick([0, 1, 1, 1, 2, 3])).map { _ in ReminderFilter.random(&random, data: data) }
        let keys = (0..<random.int(in: 0...3)).map { _ in ReminderOrder.random(&random) } + [.finalKey(&random)]
        return SingleTableProgram(
            filters: filters, orderGroups: groupsOfKeys(keys, &random), limit: .random(&random),
            shape: random.pick(Shape.allCases))
    }

    func builderRows(_ connection: Connection) throws -> [[DatabaseValue]] {
        typealias Reminder = FuzzModels.Reminder
        var query = filters.first.map { first in Reminder.where { first.expression($0) } } ?? Reminder.all
        for filter in filters.dropFirst() { query = query.where { filter.expression($0) } }
        for group in orderGroups {
            switch group.count {
            case 1: query = query.order { group[0].term($0) }
            case 2: query = query.order { (group[0].term($0), group[1].term($0)) }
            default: query = query.order { (group[0].term($0), group[1].term($0), group[2].term($0)) }
            }
        }
        if let limit { query = query.limit(limit.count, offset: limit.offset) }
        switch shape {
        case .rows:
            return try query.fetchAll(connection).map(FuzzRows.values)
        case .titles:
            return try query.select { $0.title }.fetchAll(connection).map { [.text($0)] }
        case .idAndPriority:
            return try query.select { ($0.id, $0.priority) }.fetchAll(connection).map {
                [.integer(Int64($0.0)), $0.1.map { .integer(Int64($0)) } ?? .null]
            }
        case .count:
            return [[.integer(Int64(try query.fetchCount(connection)))]]
        }
    }

    func handWritten() -> (sql: String, arguments: [DatabaseValue]) {
        var arguments: [DatabaseValue] = []
        let selection: String
        switch shape {
        case .rows: selection = reminderColumns
        case .titles: selection = "r.title"
        case .idAndPriority: selection = "r.id, r.priority"
        case .count: selection = "r.id"
        }
        var sql = "SELECT \(selection) FROM reminder AS r"
        sql += whereClause(filters.map { $0.sql("r", &arguments) })
        sql += " ORDER BY " + orderGroups.joined().map { $0.sql("r") }.joined(separator: ", ")
        if let limit { sql += limit.sql(&arguments) }
        if shape == .count { sql = "SELECT count(*) FROM (\(sql))" }
        return (sql, arguments)
    }
}

/// `reminder JOIN remindersList`: filters and keys on each side before the join, conditions and keys
/// over the pair after it.
struct InnerJoinProgram: FuzzProgram {
    var reminderFilters: [ReminderFilter]
    var reminderOrders: [ReminderOrder]
    var listFilters: [ListFilter]
    var listOrders: [ListOrder]
    var pairFilters: [PairFilter]
    var pairOrders: [PairOrder]
    var finalKey: ReminderOrder
    var limit: FuzzLimit?
    var selectsTitleAndName: Bool

    static func random(_ random: inout SeededRandom, data: FuzzData) -> InnerJoinProgram {
        InnerJoinProgram(
            reminderFilters: (0..<random.int(in: 0...2)).map { _ in .random(&random, data: data) },
            reminderOrders: (0..<random.int(in: 0...1)).map { _ in .random(&random) },
            listFilters: (0..<random.int(in: 0...1)).map { _ in .random(&random, data: data) },
            listOrders: (0..<random.int(in: 0...1)).map { _ in .random(&random) },
            pairFilters: (0..<random.int(in: 0...2)).map { _ in .random(&random, data: data) },
            pairOrders: (0..<random.int(in: 0...2)).map { _ in .random(&random) },
            finalKey: .finalKey(&random), limit: .random(&random), selectsTitleAndName: random.chance(25))
    }

    func builderRows(_ connection: Connection) throws -> [[DatabaseValue]] {
        var reminders = FuzzModels.Reminder.all
        for filter in reminderFilters { reminders = reminders.where { filter.expression($0) } }
        for order in reminderOrders { reminders = reminders.order { order.term($0) } }
        var lists = FuzzModels.RemindersList.all
        for filter in listFilters { lists = lists.where { filter.expression($0) } }
        for order in listOrders { lists = lists.order { order.term($0) } }
        var query = reminders.join(lists) { $0.listID == $1.id }
        for filter in pairFilters { query = query.where { r, l in filter.expression(r, l) } }
        for order in pairOrders { query = query.order { r, l in order.term(r, l) } }
        query = query.order { r, _ in finalKey.term(r) }
        if let limit { query = query.limit(limit.count, offset: limit.offset) }
        if selectsTitleAndName {
            return try query.select { r, l in (r.title, l.name) }.fetchAll(connection).map { [.text($0.0), .text($0.1)] }
        }
        return try query.fetchAll(connection).map { FuzzRows.values($0.0) + FuzzRows.values($0.1) }
    }

    func handWritten() -> (sql: String, arguments: [DatabaseValue]) {
        var arguments: [DatabaseValue] = []
        var sql = "SELECT \(selectsTitleAndName ? "r.title, l.name" : "\(reminderColumns), \(listColumns)") "
            + "FROM reminder AS r INNER JOIN remindersList AS l ON r.listID = l.id"
        var conditions = reminderFilters.map { $0.sql("r", &arguments) }
        conditions += listFilters.map { $0.sql("l", &arguments) }
        conditions += pairFilters.map { $0.sql(&arguments) }
        sql += whereClause(conditions)
        let keys = reminderOrders.map { $0.sql("r") } + listOrders.map { $0.sql("l") } + pairOrders.map { $0.sql() }
            + [finalKey.sql("r")]
        sql += " ORDER BY " + keys.joined(separator: ", ")
        if let limit { sql += limit.sql(&arguments) }
        return (sql, arguments)
    }
}

/// `remindersList LEFT JOIN reminder`: the reminder side's filters restrict which rows match (they belong
/// in `ON`), the list side's and the pair's filter rows out.
struct LeftJoinProgram: FuzzProgram {
    var listFilters: [ListFilter]
    var listOrders: [ListOrder]
    var reminderFilters: [ReminderFilter]
    var reminderOrders: [ReminderOrder]
    var pairFilters: [PairFilter]
    var pairOrders: [PairOrder]
    var limit: FuzzLimit?

    static func random(_ random: inout SeededRandom, data: FuzzData) -> LeftJoinProgram {
        LeftJoinProgram(
            listFilters: (0..<random.int(in: 0...1)).map { _ in .random(&random, data: data) },
            listOrders: (0..<random.int(in: 0...1)).map { _ in .random(&random) },
            reminderFilters: (0..<random.int(in: 0...2)).map { _ in .random(&random, data: data) },
            reminderOrders: (0..<random.int(in: 0...1)).map { _ in .random(&random) },
            pairFilters: (0..<random.pick([0, 0, 1])).map { _ in .random(&random, data: data) },
            pairOrders: (0..<random.int(in: 0...1)).map { _ in .random(&random) },
            limit: .random(&random))
    }

    func builderRows(_ connection: Connection) throws -> [[DatabaseValue]] {
        var lists = FuzzModels.RemindersList.all
        for filter in listFilters { lists = lists.where { filter.expression($0) } }
        for order in listOrders { lists = lists.order { order.term($0) } }
        var reminders = FuzzModels.Reminder.all
        for filter in reminderFilters { reminders = reminders.where { filter.expression($0) } }
        for order in reminderOrders { reminders = reminders.order { order.term($0) } }
        var query = lists.leftJoin(reminders) { $0.id == $1.listID }
        for filter in pairFilters { query = query.where { l, r in filter.expression(r.base, l) } }
        for order in pairOrders { query = query.order { l, r in order.term(r.base, l) } }
        query = query.order { l, r in (l.id, r.id) }
        if let limit { query = query.limit(limit.count, offset: limit.offset) }
        return try query.fetchAll(connection).map { FuzzRows.values($0.0) + FuzzRows.values($0.1) }
    }

    func handWritten() -> (sql: String, arguments: [DatabaseValue]) {
        var arguments: [DatabaseValue] = []
        var on = "l.id = r.listID"
        for filter in reminderFilters { on += " AND (\(filter.sql("r", &arguments)))" }
        var sql = "SELECT \(listColumns), \(reminderColumns) FROM remindersList AS l LEFT OUTER JOIN reminder AS r ON \(on)"
        sql += whereClause(listFilters.map { $0.sql("l", &arguments) } + pairFilters.map { $0.sql(&arguments) })
        let keys = listOrders.map { $0.sql("l") } + reminderOrders.map { $0.sql("r") } + pairOrders.map { $0.sql() }
            + ["l.id", "r.id"]
        sql += " ORDER BY " + keys.joined(separator: ", ")
        if let limit { sql += limit.sql(&arguments) }
        return (sql, arguments)
    }
}
