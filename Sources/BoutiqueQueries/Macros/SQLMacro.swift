/// A SQL statement or expression written as text, with every interpolated value bound as a parameter.
///
/// ```swift
/// try #sql("DELETE FROM \(Note.self) WHERE \(Note.columns.title) = \(title)").execute(connection)
/// let count = try #sql("SELECT count(*) FROM \(Note.self)", as: Int.self).fetchOne(connection)
/// Note.where { #sql("\($0.title) LIKE 'todo%'", as: Bool.self) }
/// ```
///
/// Values become `?` parameters; a table type becomes its quoted name, a column its qualified quoted name,
/// any other expression its SQL. `\(raw: text)` inserts text verbatim, and `\(identifier: name)` a quoted
/// name. The literal is checked when compiling: an interpolation inside a SQL string (`'\(x)'`), a quoted
/// identifier or a comment, an unterminated quote, unbalanced parentheses and a bare `?` are errors.
@freestanding(expression)
public macro sql(_ query: SQLQuery<Void>) -> SQLQuery<Void> =
    #externalMacro(module: "BoutiqueMacros", type: "SQLMacro")

/// A SQL expression whose type comes from where it is used: see ``sql(_:)-2p2y5``.
///
/// ```swift
/// Note.where { #sql("\($0.title) GLOB 'a*'") }          // a QueryExpression<Bool>
/// ```
@freestanding(expression)
public macro sql<QueryValue>(_ query: SQLQuery<QueryValue>) -> SQLQuery<QueryValue> =
    #externalMacro(module: "BoutiqueMacros", type: "SQLMacro")

/// A SQL query whose result has the representation `Output`: see ``sql(_:)-2p2y5``.
///
/// ```swift
/// let titles = try #sql("SELECT title FROM note ORDER BY title", as: String.self).fetchAll(connection)
/// ```
@freestanding(expression)
public macro sql<Output>(_ query: SQLQuery<Output>, as output: Output.Type) -> SQLQuery<Output> =
    #externalMacro(module: "BoutiqueMacros", type: "SQLMacro")
