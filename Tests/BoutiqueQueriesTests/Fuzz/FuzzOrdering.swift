import BoutiqueQueries
import BoutiqueSQLite
import BoutiqueTestSupport

/// An ordering term the builder made, carried out of a closure whose branches make different types.
struct FuzzOrderingTerm: QueryOrdering {
    let orderingFragment: QueryFragment
}

/// How one key sorts: as written (SQLite's default, ascending), or with a direction and a place for NULLs.
struct FuzzDirection {
    enum Kind { case plain, ascending, descending }
    var kind: Kind
    var nulls: NullOrdering?

    static func random(_ random: inout SeededRandom) -> FuzzDirection {
        let kind = random.pick([Kind.plain, .ascending, .descending])
        let nulls = kind == .plain || random.chance(50) ? nil : random.pick([NullOrdering.first, .last])
        return FuzzDirection(kind: kind, nulls: nulls)
    }

    /// The key through the builder: the column itself, `asc(nulls:)` or `desc(nulls:)`.
    func term<E: QueryExpression & QueryOrdering>(_ expression: E) -> FuzzOrderingTerm {
        switch kind {
        case .plain: FuzzOrderingTerm(orderingFragment: expression.orderingFragment)
        case .ascending: FuzzOrderingTerm(orderingFragment: expression.asc(nulls: nulls).orderingFragment)
        case .descending: FuzzOrderingTerm(orderingFragment: expression.desc(nulls: nulls).orderingFragment)
        }
    }

    /// The key written by hand.
    func sql(_ column: String) -> String {
        var text = column
        switch kind {
        case .plain: break
        case .ascending: text += " ASC"
        case .descending: text += " DESC"
        }
        switch nulls {
        case .first?: text += " NULLS FIRST"
        case .last?: text += " NULLS LAST"
        case nil: break
        }
        return text
    }
}

struct ReminderOrder {
    enum Column: CaseIterable { case id, title, isDone, priority, listID }
    var column: Column
    var direction: FuzzDirection

    static func random(_ random: inout SeededRandom) -> ReminderOrder {
        ReminderOrder(column: random.pick(Column.allCases), direction: .random(&random))
    }

    /// The primary key, last, so that the order is total.
    static func finalKey(_ random: inout SeededRandom) -> ReminderOrder {
        ReminderOrder(column: .id, direction: .random(&random))
    }

    func term(_ c: FuzzModels.Reminder.TableColumns) -> FuzzOrderingTerm {
        switch column {
        case .id: direction.term(c.id)
        case .title: direction.term(c.title)
        case .isDone: direction.term(c.isDone)
        case .priority: direction.term(c.priority)
        case .listID: direction.term(c.listID)
        }
    }

    func sql(_ alias: String) -> String { direction.sql("\(alias).\(column)") }
}

struct ListOrder {
    var byName: Bool
    var direction: FuzzDirection

    static func random(_ random: inout SeededRandom) -> ListOrder {
        ListOrder(byName: random.chance(60), direction: .random(&random))
    }

    func term(_ c: FuzzModels.RemindersList.TableColumns) -> FuzzOrderingTerm {
        byName ? direction.term(c.name) : direction.term(c.id)
    }

    func sql(_ alias: String) -> String { direction.sql("\(alias).\(byName ? "name" : "id")") }
}

/// A key of a joined pair: a column of either side.
enum PairOrder {
    case reminder(ReminderOrder)
    case list(ListOrder)

    static func random(_ random: inout SeededRandom) -> PairOrder {
        random.chance(60) ? .reminder(.random(&random)) : .list(.random(&random))
    }

    func term(_ r: FuzzModels.Reminder.TableColumns, _ l: FuzzModels.RemindersList.TableColumns) -> FuzzOrderingTerm {
        switch self {
        case .reminder(let order): order.term(r)
        case .list(let order): order.term(l)
        }
    }

    func sql() -> String {
        switch self {
        case .reminder(let order): order.sql("r")
        case .list(let order): order.sql("l")
        }
    }
}

/// `LIMIT` and `OFFSET`: a negative limit means no limit in SQLite.
struct FuzzLimit {
    var count: Int
    var offset: Int?

    static func random(_ random: inout SeededRandom) -> FuzzLimit? {
        guard random.chance(40) else { return nil }
        return FuzzLimit(count: random.chance(10) ? -1 : random.int(in: 0...10), offset: random.chance(50) ? random.int(in: 0...8) : nil)
    }

    func sql(_ arguments: inout [DatabaseValue]) -> String {
        arguments.append(.integer(Int64(count)))
        guard let offset else { return " LIMIT ?" }
        arguments.append(.integer(Int64(offset)))
        return " LIMIT ? OFFSET ?"
    }
}
