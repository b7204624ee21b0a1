/// Makes a Swift function callable from SQL: the macro adds `$name`, a ``ScalarDatabaseFunction`` whose
/// `callAsFunction` takes one query expression per argument.
///
/// ```swift
/// @DatabaseFunction
/// func exclaim(_ text: String) -> String { text + "!" }
///
/// var options = BoutiqueDB.Options()
/// options.prepareDatabase { conn in try conn.add(function: $exclaim) }
///
/// Reminder.select { $exclaim($0.title) }    // SELECT "exclaim"("reminder"."title") FROM "reminder"
/// ```
///
/// A function taking `some Sequence<Element>` is an aggregate (an ``AggregateDatabaseFunction``), called
/// once per group with the group's values; a computed property is a function without arguments that is
/// itself an expression (`$now`). Arguments and results are read and written as columns of their types
/// are; a function that throws fails the calling statement with the error's message.
///
/// - Parameters:
///   - name: The SQL name; the Swift name when empty.
///   - isDeterministic: The same arguments always give the same result, so SQLite may call it fewer
///     times and allow it in indexes, generated columns and `CHECK` constraints.
@attached(peer, names: prefixed(`$`))
public macro DatabaseFunction(_ name: String = "", isDeterministic: Bool = false) =
    #externalMacro(module: "BoutiqueMacros", type: "DatabaseFunctionMacro")

/// A database function whose arguments and result are stored with other representations, named by a
/// function type: see ``DatabaseFunction(_:isDeterministic:)``.
///
/// ```swift
/// @DatabaseFunction(as: ((Date.UnixTimeRepresentation) -> Bool).self)
/// func isPastDue(_ date: Date) -> Bool { date < Date() }
///
/// @DatabaseFunction(as: (([String].JSONRepresentation) -> [String].JSONRepresentation).self)
/// func exclaimAll(_ strings: [String]) -> [String] { strings.map { $0 + "!" } }
/// ```
///
/// - Parameters:
///   - name: The SQL name; the Swift name when empty.
///   - representableFunctionType: The function with each argument and the result written as the
///     representation it is stored with.
///   - isDeterministic: The same arguments always give the same result.
@attached(peer, names: prefixed(`$`))
public macro DatabaseFunction<each T: QueryRepresentable, R: QueryRepresentable>(
    _ name: String = "",
    as representableFunctionType: ((repeat each T) -> R).Type,
    isDeterministic: Bool = false
) = #externalMacro(module: "BoutiqueMacros", type: "DatabaseFunctionMacro")

/// A database function returning nothing whose arguments are stored with other representations: see
/// ``DatabaseFunction(_:isDeterministic:)``.
///
/// - Parameters:
///   - name: The SQL name; the Swift name when empty.
///   - representableFunctionType: The function with each argument written as its representation.
///   - isDeterministic: The same arguments always give the same result.
@attached(peer, names: prefixed(`$`))
public macro DatabaseFunction<each T: QueryRepresentable>(
    _ name: String = "",
    as representableFunctionType: ((repeat each T) -> Void).Type,
    isDeterministic: Bool = false
) = #externalMacro(module: "BoutiqueMacros", type: "DatabaseFunctionMacro")

/// An aggregate database function whose arguments and result are stored with other representations,
/// the sequence written `any Sequence<…>`.
///
/// ```swift
/// @DatabaseFunction(as: ((any Sequence<[String].JSONRepresentation>) -> [String].JSONRepresentation).self)
/// func joined(_ arrays: some Sequence<[String]>) -> [String] { arrays.flatMap { $0 } }
/// ```
///
/// - Parameters:
///   - name: The SQL name; the Swift name when empty.
///   - representableFunctionType: The function with the sequence's elements and the result written as
///     the representations they are stored with.
///   - isDeterministic: The same rows always give the same result.
@attached(peer, names: prefixed(`$`))
public macro DatabaseFunction<each T: QueryRepresentable, R: QueryRepresentable>(
    _ name: String = "",
    as representableFunctionType: ((any Sequence<(repeat each T)>) -> R).Type,
    isDeterministic: Bool = false
) = #externalMacro(module: "BoutiqueMacros", type: "DatabaseFunctionMacro")

/// An aggregate database function returning nothing whose arguments are stored with other
/// representations.
///
/// - Parameters:
///   - name: The SQL name; the Swift name when empty.
///   - representableFunctionType: The function with the sequence's elements written as their
///     representations.
///   - isDeterministic: The same rows always give the same result.
@attached(peer, names: prefixed(`$`))
public macro DatabaseFunction<each T: QueryRepresentable>(
    _ name: String = "",
    as representableFunctionType: ((any Sequence<(repeat each T)>) -> Void).Type,
    isDeterministic: Bool = false
) = #externalMacro(module: "BoutiqueMacros", type: "DatabaseFunctionMacro")

/// A computed property whose value is stored with another representation.
///
/// ```swift
/// @DatabaseFunction(as: Date.UnixTimeRepresentation.self)
/// var startOfToday: Date { Calendar.current.startOfDay(for: Date()) }
/// ```
///
/// - Parameters:
///   - name: The SQL name; the Swift name when empty.
///   - representableType: The representation the value is written with.
///   - isDeterministic: The function always gives the same result.
@attached(peer, names: prefixed(`$`))
public macro DatabaseFunction<R: QueryRepresentable>(
    _ name: String = "",
    as representableType: R.Type,
    isDeterministic: Bool = false
) = #externalMacro(module: "BoutiqueMacros", type: "DatabaseFunctionMacro")
