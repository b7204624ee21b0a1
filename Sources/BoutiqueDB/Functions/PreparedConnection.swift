import BoutiqueSQLite

/// One connection of a database being opened, handed to ``DatabaseOptions/prepareDatabase(_:)`` so
/// Swift functions can be added to it before anything runs on it.
///
/// ```swift
/// var options = BoutiqueDB.Options()
/// options.prepareDatabase { conn in
///     try conn.add(scalarFunction: "exclaim", argumentCount: 1) { arguments in
///         .text("\(arguments[0])!")
///     }
/// }
/// ```
///
/// It is only valid inside the preparation closure: keep no copy of it.
///
/// It is also where the connection's temporary triggers and views are created
/// (``execute(_:)``): they belong to the connection that creates them, so a database creates them
/// on each of its connections as it opens them.
public struct PreparedConnection {
    let connection: Connection

    /// `true` for the writer connection, `false` for a reader.
    public let isWriter: Bool

    /// Where the writer's statements wait for the migrations; `nil` on a reader, which runs them at once.
    let afterMigrations: StatementsAfterMigrations?

    init(_ connection: Connection, isWriter: Bool, afterMigrations: StatementsAfterMigrations? = nil) {
        self.connection = connection
        self.isWriter = isWriter
        self.afterMigrations = afterMigrations
    }

    /// Adds (or replaces) a scalar SQL function working on raw SQLite values. An error the body throws
    /// fails the calling statement with the error's message.
    ///
    /// - Parameters:
    ///   - name: The SQL name.
    ///   - argumentCount: How many arguments it takes (`-1`: any number).
    ///   - isDeterministic: The same arguments always give the same result.
    ///   - body: Computes the result from the arguments.
    public func add(
        scalarFunction name: String, argumentCount: Int, isDeterministic: Bool = false,
        _ body: @escaping ([DatabaseValue]) throws -> DatabaseValue
    ) throws {
        guard let count = Int32(exactly: argumentCount) else {
            throw BoutiqueError.invalidArgument("function \(name): argument count \(argumentCount) is out of range")
        }
        do {
            try connection.createFunction(name, argumentCount: count, deterministic: isDeterministic, body)
        } catch {
            throw BoutiqueError(error)
        }
    }

    /// Removes a function added by ``add(scalarFunction:argumentCount:isDeterministic:_:)``.
    public func remove(scalarFunction name: String, argumentCount: Int) throws {
        guard let count = Int32(exactly: argumentCount) else {
            throw BoutiqueError.invalidArgument("function \(name): argument count \(argumentCount) is out of range")
        }
        do {
            try connection.removeFunction(name, argumentCount: count)
        } catch {
            throw BoutiqueError(error)
        }
    }
}

extension PreparedConnection {
    /// Runs `statement` on this connection: typically a temporary trigger or view, which exists only
    /// on the connection that creates it, so every connection is given its own here.
    ///
    /// ```swift
    /// options.prepareDatabase { conn in
    ///     try conn.execute(ReminderWithList.createTemporaryView(as: …))
    ///     if conn.isWriter {
    ///         try conn.execute(Reminder.createTemporaryTrigger(after: .update(touch: \.updatedAt)))
    ///     }
    /// }
    /// ```
    ///
    /// On a reader it runs at once. On the writer it runs once the migrations have run, in a write
    /// transaction of its own, so that a trigger may name a table a migration creates; a statement that
    /// fails makes the open fail with its error. Triggers fire only on writes, which only the writer
    /// makes: readers need the views, not the triggers.
    public func execute(_ statement: some QueryStatement) throws {
        if let afterMigrations {
            afterMigrations.append(statement.query)
            return
        }
        try Self.run(statement.query, on: connection)
    }

    /// Prepares, binds and steps `fragment` to the end.
    static func run(_ fragment: QueryFragment, on connection: Connection) throws(BoutiqueError) {
        do {
            let statement = try connection.prepare(fragment.sql)
            defer { statement.finalize() }
            try statement.bind(fragment.bindings)
            while try statement.step() {}
        } catch {
            throw BoutiqueError(error)
        }
    }
}
