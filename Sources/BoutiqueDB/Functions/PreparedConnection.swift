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
public struct PreparedConnection {
    let connection: Connection

    /// `true` for the writer connection, `false` for a reader.
    public let isWriter: Bool

    init(_ connection: Connection, isWriter: Bool) {
        self.connection = connection
        self.isWriter = isWriter
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
