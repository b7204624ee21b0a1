import BoutiqueQueries
import BoutiqueSQLite

/// The closures ``DatabaseOptions/prepareDatabase(_:)`` collected, run on every connection as it opens.
///
/// Options are `Hashable`; closures are not, so each added step carries an identity and two
/// preparations are equal when they hold the same steps.
struct DatabasePreparation: Sendable, Hashable {
    struct Step: Sendable {
        let id: Int
        let body: @Sendable (PreparedConnection) throws -> Void
    }

    private(set) var steps: [Step] = []
    private static let counter = Lock(0)

    mutating func append(_ body: @escaping @Sendable (PreparedConnection) throws -> Void) {
        steps.append(Step(id: Self.counter.withLock { value in value += 1; return value }, body: body))
    }

    /// Runs every step on `connection`, in the order they were added; on the writer, the statements
    /// the steps gave it to run once the migrations have run (``PreparedConnection/execute(_:)``).
    @discardableResult
    func run(on connection: Connection, isWriter: Bool) throws -> [QueryFragment] {
        let afterMigrations = isWriter ? StatementsAfterMigrations() : nil
        let prepared = PreparedConnection(connection, isWriter: isWriter, afterMigrations: afterMigrations)
        for step in steps { try step.body(prepared) }
        return afterMigrations?.statements ?? []
    }

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.steps.map(\.id) == rhs.steps.map(\.id) }
    func hash(into hasher: inout Hasher) { hasher.combine(steps.map(\.id)) }
}
