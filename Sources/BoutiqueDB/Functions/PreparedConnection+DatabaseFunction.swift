import BoutiqueSQLite
import Foundation

extension PreparedConnection {
    /// Adds (or replaces) `function` on this connection under its SQL name.
    ///
    /// ```swift
    /// @DatabaseFunction
    /// func exclaim(_ text: String) -> String { text + "!" }
    ///
    /// options.prepareDatabase { conn in try conn.add(function: $exclaim) }
    /// ```
    ///
    /// An argument that does not decode as the function's parameter type fails the calling statement
    /// with a message naming the function and the argument (`exclaim: argument 1: expected String,
    /// found INTEGER 42`); so does an error the function throws (`exclaim: ` and its description).
    public func add(function: some ScalarDatabaseFunction) throws {
        let name = function.name
        try register(name, function.argumentCount) { count throws(SQLiteError) in
            try connection.createFunction(
                name, argumentCount: count, deterministic: function.isDeterministic,
                argumentRow: { row in
                    var arguments = RowDecoder(statement: row, source: name)
                    do {
                        return try function.invoke(&arguments)
                    } catch {
                        throw DatabaseFunctionFailure.message(for: error, in: name)
                    }
                })
        }
    }

    /// Adds (or replaces) the aggregate `function` on this connection under its SQL name.
    ///
    /// ```swift
    /// @DatabaseFunction
    /// func mode(priority priorities: some Sequence<Priority?>) -> Priority? { … }
    ///
    /// options.prepareDatabase { conn in try conn.add(function: $mode) }
    /// ```
    ///
    /// Errors fail the calling statement as for a scalar function's.
    public func add<Function: AggregateDatabaseFunction>(function: Function) throws {
        let name = function.name
        try register(name, function.argumentCount) { count throws(SQLiteError) in
            try connection.createAggregateFunction(
                name, argumentCount: count, deterministic: function.isDeterministic
            ) { DatabaseFunctionAggregation(function: function) }
        }
    }

    /// Removes `function` from this connection.
    public func remove(function: some DatabaseFunction) throws {
        try remove(scalarFunction: function.name, argumentCount: function.argumentCount)
    }

    /// Runs `create` with the argument count as SQLite takes it, refusing one out of range.
    private func register(
        _ name: String, _ argumentCount: Int, _ create: (Int32) throws(SQLiteError) -> Void
    ) throws {
        guard let count = Int32(exactly: argumentCount) else {
            throw BoutiqueError.invalidArgument("function \(name): argument count \(argumentCount) is out of range")
        }
        do {
            try create(count)
        } catch {
            throw BoutiqueError(error)
        }
    }
}

/// An aggregate function's state for one group: the elements read from its rows so far.
private struct DatabaseFunctionAggregation<Function: AggregateDatabaseFunction>: SQLAggregation {
    let function: Function
    var elements: [Function.Element] = []

    mutating func step(_ arguments: Statement) throws {
        var decoder = RowDecoder(statement: arguments, source: function.name)
        do {
            elements.append(try function.step(&decoder))
        } catch {
            throw DatabaseFunctionFailure.message(for: error, in: function.name)
        }
    }

    func finish() throws -> DatabaseValue {
        do {
            return try function.invoke(elements)
        } catch {
            throw DatabaseFunctionFailure.message(for: error, in: function.name)
        }
    }
}
