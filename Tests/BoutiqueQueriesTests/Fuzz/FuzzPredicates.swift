import BoutiqueQueries
import BoutiqueSQLite
import BoutiqueTestSupport

// Random filters, each kept as a small tree that is turned two ways: into query-builder calls, and
// into SQL text written out by hand with `?` for every value. The two renderings share nothing but the
// tree, so a builder that renders the wrong operator, loses parentheses or binds values out of order
// returns other rows than the hand-written query.

enum FuzzComparison: CaseIterable {
    case equal, notEqual, less, lessOrEqual, greater, greaterOrEqual

    var sql: String {
        switch self {
        case .equal: "="
        case .notEqual: "<>"
        case .less: "<"
        case .lessOrEqual: "<="
        case .greater: ">"
        case .greaterOrEqual: ">="
        }
    }

    /// `lhs op rhs` through the builder's operators.
    func apply<E: QueryExpression>(_ lhs: E, _ rhs: E.QueryValue.QueryOutput) -> SQLExpression<Bool>
    where E.QueryValue: QueryRepresentable {
        switch self {
        case .equal: lhs == rhs
        case .notEqual: lhs != rhs
        case .less: lhs < rhs
        case .lessOrEqual: lhs <= rhs
        case .greater: lhs > rhs
        case .greaterOrEqual: lhs >= rhs
        }
    }

    /// `lhs op rhs` between two expressions.
    func applyBetween<E: QueryExpression, F: QueryExpression<E.QueryValue>>(_ lhs: E, _ rhs: F) -> SQLExpression<Bool>
    where E.QueryValue: QueryRepresentable {
        switch self {
        case .equal: lhs == rhs
        case .notEqual: lhs != rhs
        case .less: lhs < rhs
        case .lessOrEqual: lhs <= rhs
        case .greater: lhs > rhs
        case .greaterOrEqual: lhs >= rhs
        }
    }
}

/// The integer columns of `reminder` that hold no NULL.
enum ReminderIntColumn: CaseIterable {
    case id, listID

    var name: String { self == .id ? "id" : "listID" }

    func column(_ c: FuzzModels.Reminder.TableColumns) -> TableColumn<FuzzModels.Reminder, Int> {
        self == .id ? c.id : c.listID
    }
}

/// A condition on one `reminder` row.
indirect enum ReminderFilter {
    case compareInt(ReminderIntColumn, FuzzComparison, Int)
    case comparePriority(FuzzComparison, Int?)
    case priorityIs(Int?, negated: Bool)
    case compareTitle(FuzzComparison, String)
    case isDone
    case isDoneEquals(Bool)
    case intIn(ReminderIntColumn, [Int], sequenceSpelling: Bool)
    case priorityIn([Int?])
    case titleIn([String])
    case intBetween(ReminderIntColumn, Int, Int)
    case priorityBetween(Int, Int)
    case titleBetween(String, String)
    case like(String, escape: Character?)
    case contains(String)
    case hasPrefix(String)
    case hasSuffix(String)
    case idAgainstListID(FuzzComparison)
    case listIn(ListFilter)
    /// `CASE WHEN priority > t THEN 2 WHEN priority IS NULL THEN 0 ELSE 1 END = n`.
    case priorityBucket(threshold: Int, equals: Int)
    /// `coalesce(priority, d) op v`, spelled `priority ?? d`.
    case priorityOrDefault(Int, FuzzComparison, Int)
    /// `CAST(id AS TEXT) LIKE pattern`.
    case idTextLike(String)
    /// `EXISTS (SELECT … FROM remindersList WHERE filter AND id = reminder.listID)`.
    case listExists(ListFilter)
    case and(ReminderFilter, ReminderFilter)
    case or(ReminderFilter, ReminderFilter)
    case not(ReminderFilter)

    static func random(_ random: inout SeededRandom, data: FuzzData, depth: Int = 0) -> ReminderFilter {
        if depth < 3, random.chance(depth == 0 ? 45 : 25) {
            switch random.below(3) {
            case 0: return .and(.random(&random, data: data, depth: depth + 1), .random(&random, data: data, depth: depth + 1))
            case 1: return .or(.random(&random, data: data, depth: depth + 1), .random(&random, data: data, depth: depth + 1))
            default: return .not(.random(&random, data: data, depth: depth + 1))
            }
        }
        let comparison = random.pick(FuzzComparison.allCases)
        let intColumn = random.pick(ReminderIntColumn.allCases)
        func number(_ random: inout SeededRandom) -> Int {
            intColumn == .id ? random.int(in: -1...62) : random.int(in: -1...9)
        }
        func priority(_ random: inout SeededRandom) -> Int {
            random.chance(8) ? random.pick([Int.max, Int.min]) : random.int(in: -3...6)
        }
        // The expression families beyond plain comparisons: CASE, coalesce, CAST and EXISTS.
        if random.chance(15) {
            switch random.below(4) {
            case 0: return .priorityBucket(threshold: random.int(in: -2...5), equals: random.int(in: 0...2))
            case 1: return .priorityOrDefault(priority(&random), comparison, priority(&random))
            case 2:
                let digits = String(random.int(in: 0...9))
                return .idTextLike(random.pick([digits + "%", "%" + digits, "_" + digits, digits, "%"]))
            default: return .listExists(.random(&random, data: data, depth: 2))
            }
        }
        switch random.below(18) {
        case 0, 1: return .compareInt(intColumn, comparison, number(&random))
        case 2:
            let isEquality = comparison == .equal || comparison == .notEqual
            return .comparePriority(comparison, isEquality && random.chance(30) ? nil : priority(&random))
        case 3: return .priorityIs(random.chance(60) ? nil : priority(&random), negated: random.chance(50))
        case 4: return .compareTitle(comparison, random.chance(50) ? random.pick(data.titles) : HostileStrings.make(&random))
        case 5: return .isDone
        case 6: return .isDoneEquals(random.chance(50))
        case 7:
            let values = (0..<random.int(in: 0...4)).map { _ in number(&random) }
            return .intIn(intColumn, values, sequenceSpelling: random.chance(30))
        case 8: return .priorityIn((0..<random.int(in: 1...3)).map { _ in random.chance(25) ? nil : priority(&random) })
        case 9: return .titleIn((0..<random.int(in: 0...3)).map { _ in random.chance(60) ? random.pick(data.titles) : HostileStrings.make(&random) })
        case 10:
            let (a, b) = (number(&random), number(&random))
            return .intBetween(intColumn, min(a, b), random.chance(85) ? max(a, b) : min(a, b) - 1)
        case 11:
            let (a, b) = (priority(&random), priority(&random))
            return .priorityBetween(min(a, b), max(a, b))
        case 12:
            let (a, b) = (HostileStrings.make(&random), random.pick(data.titles))
            return .titleBetween(min(a, b), max(a, b))
        case 13: return .like(HostileStrings.likePattern(&random, from: data.titles), escape: random.chance(20) ? random.pick(["!", "\\", "#"]) : nil)
        case 14: return .contains(HostileStrings.needle(&random, from: data.titles))
        case 15: return .hasPrefix(HostileStrings.needle(&random, from: data.titles))
        case 16: return .hasSuffix(HostileStrings.needle(&random, from: data.titles))
        default:
            return random.chance(50) ? .idAgainstListID(comparison) : .listIn(.random(&random, data: data, depth: 2))
        }
    }

    /// The condition through the query builder.
    func expression(_ c: FuzzModels.Reminder.TableColumns) -> SQLExpression<Bool> {
        switch self {
        case .compareInt(let column, let comparison, let value): comparison.apply(column.column(c), value)
        case .comparePriority(let comparison, let value): comparison.apply(c.priority, value)
        case .priorityIs(let value, let negated): negated ? c.priority.isNot(value) : c.priority.is(value)
        case .compareTitle(let comparison, let value): comparison.apply(c.title, value)
        case .isDone: SQLExpression(c.isDone.queryFragment)
        case .isDoneEquals(let value): c.isDone == value
        case .intIn(let column, let values, let sequenceSpelling):
            sequenceSpelling ? values.contains(column.column(c)) : column.column(c).in(values)
        case .priorityIn(let values): c.priority.in(values)
        case .titleIn(let values): c.title.in(values)
        case .intBetween(let column, let low, let high): column.column(c).between(low, and: high)
        case .priorityBetween(let low, let high): c.priority.between(low, and: high)
        case .titleBetween(let low, let high): c.title.between(low, and: high)
        case .like(let pattern, let escape): c.title.like(pattern, escape: escape)
        case .contains(let needle): c.title.contains(needle)
        case .hasPrefix(let needle): c.title.hasPrefix(needle)
        case .hasSuffix(let needle): c.title.hasSuffix(needle)
        case .idAgainstListID(let comparison): comparison.applyBetween(c.id, c.listID)
        case .listIn(let filter): c.listID.in(FuzzModels.RemindersList.where { filter.expression($0) }.select { $0.id })
        case .priorityBucket(let threshold, let equals):
            Case().when(c.priority > threshold, then: 2).when(c.priority.is(nil), then: 0).else(1) == equals
        case .priorityOrDefault(let fallback, let comparison, let value): comparison.apply(c.priority ?? fallback, value)
        case .idTextLike(let pattern): c.id.cast(as: String.self).like(pattern)
        case .listExists(let filter):
            FuzzModels.RemindersList.where { filter.expression($0) && $0.id == c.listID }.exists()
        case .and(let lhs, let rhs): lhs.expression(c) && rhs.expression(c)
        case .or(let lhs, let rhs): lhs.expression(c) || rhs.expression(c)
        case .not(let filter): !filter.expression(c)
        }
    }

    /// The condition written by hand, for the table aliased `alias`.
    func sql(_ alias: String, _ arguments: inout [DatabaseValue]) -> String {
        func bind(_ value: DatabaseValue) -> String {
            arguments.append(value)
            return "?"
        }
        func list(_ values: [DatabaseValue]) -> String { values.map { bind($0) }.joined(separator: ", ") }
        let title = "\(alias).title"
        switch self {
        case .compareInt(let column, let comparison, let value):
            return "\(alias).\(column.name) \(comparison.sql) \(bind(.integer(Int64(value))))"
        case .comparePriority(let comparison, let value?):
            return "\(alias).priority \(comparison.sql) \(bind(.integer(Int64(value))))"
        case .comparePriority(let comparison, nil):
            return comparison == .equal ? "\(alias).priority IS NULL" : "\(alias).priority IS NOT NULL"
        case .priorityIs(let value, let negated):
            let value = value.map { bind(.integer(Int64($0))) } ?? "NULL"
            return "\(alias).priority IS \(negated ? "NOT " : "")\(value)"
        case .compareTitle(let comparison, let value):
            return "\(title) \(comparison.sql) \(bind(.text(value)))"
        case .isDone:
            return "\(alias).isDone"
        case .isDoneEquals(let value):
            return "\(alias).isDone = \(bind(.integer(value ? 1 : 0)))"
        case .intIn(let column, let values, _):
            return "\(alias).\(column.name) IN (\(list(values.map { .integer(Int64($0)) })))"
        case .priorityIn(let values):
            return "\(alias).priority IN (\(list(values.map { $0.map { .integer(Int64($0)) } ?? .null })))"
        case .titleIn(let values):
            return "\(title) IN (\(list(values.map { .text($0) })))"
        case .intBetween(let column, let low, let high):
            return "\(alias).\(column.name) BETWEEN \(bind(.integer(Int64(low)))) AND \(bind(.integer(Int64(high))))"
        case .priorityBetween(let low, let high):
            return "\(alias).priority BETWEEN \(bind(.integer(Int64(low)))) AND \(bind(.integer(Int64(high))))"
        case .titleBetween(let low, let high):
            return "\(title) BETWEEN \(bind(.text(low))) AND \(bind(.text(high)))"
        case .like(let pattern, let escape?):
            return "\(title) LIKE \(bind(.text(pattern))) ESCAPE \(bind(.text(String(escape))))"
        case .like(let pattern, nil):
            return "\(title) LIKE \(bind(.text(pattern)))"
        // LIKE patterns, as StructuredQueries spells them: the needle's own `%` and `_` are wildcards.
        case .contains(let needle):
            return "\(title) LIKE \(bind(.text("%" + needle + "%")))"
        case .hasPrefix(let needle):
            return "\(title) LIKE \(bind(.text(needle + "%")))"
        case .hasSuffix(let needle):
            return "\(title) LIKE \(bind(.text("%" + needle)))"
        case .idAgainstListID(let comparison):
            return "\(alias).id \(comparison.sql) \(alias).listID"
        case .listIn(let filter):
            let inner = alias + "s"
            return "\(alias).listID IN (SELECT \(inner).id FROM remindersList AS \(inner) WHERE \(filter.sql(inner, &arguments)))"
        case .priorityBucket(let threshold, let equals):
            let bucket = "CASE WHEN \(alias).priority > \(bind(.integer(Int64(threshold)))) THEN \(bind(.integer(2))) "
                + "WHEN \(alias).priority IS NULL THEN \(bind(.integer(0))) ELSE \(bind(.integer(1))) END"
            return "(\(bucket)) = \(bind(.integer(Int64(equals))))"
        case .priorityOrDefault(let fallback, let comparison, let value):
            return "coalesce(\(alias).priority, \(bind(.integer(Int64(fallback))))) \(comparison.sql) \(bind(.integer(Int64(value))))"
        case .idTextLike(let pattern):
            return "CAST(\(alias).id AS TEXT) LIKE \(bind(.text(pattern)))"
        case .listExists(let filter):
            let inner = alias + "e"
            return "EXISTS (SELECT 1 FROM remindersList AS \(inner) WHERE (\(filter.sql(inner, &arguments))) AND \(inner).id = \(alias).listID)"
        case .and(let lhs, let rhs):
            return "(\(lhs.sql(alias, &arguments))) AND (\(rhs.sql(alias, &arguments)))"
        case .or(let lhs, let rhs):
            return "(\(lhs.sql(alias, &arguments))) OR (\(rhs.sql(alias, &arguments)))"
        case .not(let filter):
            return "NOT (\(filter.sql(alias, &arguments)))"
        }
    }
}

/// A condition on one `remindersList` row.
indirect enum ListFilter {
    case compareID(FuzzComparison, Int)
    case compareName(FuzzComparison, String)
    case idIn([Int])
    case nameLike(String)
    case nameContains(String)
    case nameHasPrefix(String)
    case and(ListFilter, ListFilter)
    case or(ListFilter, ListFilter)
    case not(ListFilter)

    static func random(_ random: inout SeededRandom, data: FuzzData, depth: Int = 0) -> ListFilter {
        if depth < 3, random.chance(25) {
            switch random.below(3) {
            case 0: return .and(.random(&random, data: data, depth: depth + 1), .random(&random, data: data, depth: depth + 1))
            case 1: return .or(.random(&random, data: data, depth: depth + 1), .random(&random, data: data, depth: depth + 1))
            default: return .not(.random(&random, data: data, depth: depth + 1))
            }
        }
        switch random.below(6) {
        case 0: return .compareID(random.pick(FuzzComparison.allCases), random.int(in: 0...8))
        case 1: return .compareName(random.pick(FuzzComparison.allCases), random.chance(50) ? random.pick(data.names) : HostileStrings.make(&random))
        case 2: return .idIn((0..<random.int(in: 0...3)).map { _ in random.int(in: 0...8) })
        case 3: return .nameLike(HostileStrings.likePattern(&random, from: data.names))
        case 4: return .nameContains(HostileStrings.needle(&random, from: data.names))
        default: return .nameHasPrefix(HostileStrings.needle(&random, from: data.names))
        }
    }

    func expression(_ c: FuzzModels.RemindersList.TableColumns) -> SQLExpression<Bool> {
        switch self {
        case .compareID(let comparison, let value): comparison.apply(c.id, value)
        case .compareName(let comparison, let value): comparison.apply(c.name, value)
        case .idIn(let values): c.id.in(values)
        case .nameLike(let pattern): c.name.like(pattern)
        case .nameContains(let needle): c.name.contains(needle)
        case .nameHasPrefix(let needle): c.name.hasPrefix(needle)
        case .and(let lhs, let rhs): lhs.expression(c) && rhs.expression(c)
        case .or(let lhs, let rhs): lhs.expression(c) || rhs.expression(c)
        case .not(let filter): !filter.expression(c)
        }
    }

    func sql(_ alias: String, _ arguments: inout [DatabaseValue]) -> String {
        func bind(_ value: DatabaseValue) -> String {
            arguments.append(value)
            return "?"
        }
        switch self {
        case .compareID(let comparison, let value): return "\(alias).id \(comparison.sql) \(bind(.integer(Int64(value))))"
        case .compareName(let comparison, let value): return "\(alias).name \(comparison.sql) \(bind(.text(value)))"
        case .idIn(let values): return "\(alias).id IN (\(values.map { bind(.integer(Int64($0))) }.joined(separator: ", ")))"
        case .nameLike(let pattern): return "\(alias).name LIKE \(bind(.text(pattern)))"
        case .nameContains(let needle): return "\(alias).name LIKE \(bind(.text("%" + needle + "%")))"
        case .nameHasPrefix(let needle): return "\(alias).name LIKE \(bind(.text(needle + "%")))"
        case .and(let lhs, let rhs): return "(\(lhs.sql(alias, &arguments))) AND (\(rhs.sql(alias, &arguments)))"
        case .or(let lhs, let rhs): return "(\(lhs.sql(alias, &arguments))) OR (\(rhs.sql(alias, &arguments)))"
        case .not(let filter): return "NOT (\(filter.sql(alias, &arguments)))"
        }
    }
}

/// A condition over a joined pair: either side's conditions, or the two sides compared.
indirect enum PairFilter {
    case reminder(ReminderFilter)
    case list(ListFilter)
    case listIDAgainstID(FuzzComparison)
    case titleAgainstName(FuzzComparison)
    case and(PairFilter, PairFilter)
    case or(PairFilter, PairFilter)
    case not(PairFilter)

    static func random(_ random: inout SeededRandom, data: FuzzData, depth: Int = 0) -> PairFilter {
        if depth < 2, random.chance(30) {
            switch random.below(3) {
            case 0: return .and(.random(&random, data: data, depth: depth + 1), .random(&random, data: data, depth: depth + 1))
            case 1: return .or(.random(&random, data: data, depth: depth + 1), .random(&random, data: data, depth: depth + 1))
            default: return .not(.random(&random, data: data, depth: depth + 1))
            }
        }
        switch random.below(5) {
        case 0, 1: return .reminder(.random(&random, data: data, depth: 1))
        case 2: return .list(.random(&random, data: data, depth: 1))
        case 3: return .listIDAgainstID(random.pick(FuzzComparison.allCases))
        default: return .titleAgainstName(random.pick(FuzzComparison.allCases))
        }
    }

    func expression(_ r: FuzzModels.Reminder.TableColumns, _ l: FuzzModels.RemindersList.TableColumns) -> SQLExpression<Bool> {
        switch self {
        case .reminder(let filter): filter.expression(r)
        case .list(let filter): filter.expression(l)
        case .listIDAgainstID(let comparison): comparison.applyBetween(r.listID, l.id)
        case .titleAgainstName(let comparison): comparison.applyBetween(r.title, l.name)
        case .and(let lhs, let rhs): lhs.expression(r, l) && rhs.expression(r, l)
        case .or(let lhs, let rhs): lhs.expression(r, l) || rhs.expression(r, l)
        case .not(let filter): !filter.expression(r, l)
        }
    }

    func sql(_ arguments: inout [DatabaseValue]) -> String {
        switch self {
        case .reminder(let filter): filter.sql("r", &arguments)
        case .list(let filter): filter.sql("l", &arguments)
        case .listIDAgainstID(let comparison): "r.listID \(comparison.sql) l.id"
        case .titleAgainstName(let comparison): "r.title \(comparison.sql) l.name"
        case .and(let lhs, let rhs): "(\(lhs.sql(&arguments))) AND (\(rhs.sql(&arguments)))"
        case .or(let lhs, let rhs): "(\(lhs.sql(&arguments))) OR (\(rhs.sql(&arguments)))"
        case .not(let filter): "NOT (\(filter.sql(&arguments)))"
        }
    }
}
