import BoutiqueSQLite

/// A type that is its own representation, and that can appear in a query as a bound value.
///
/// `String`, `Int`, `Double`, `Bool`, `UUID`, `Date`, `Data`, `[UInt8]`, optionals of these, and
/// `RawRepresentable` enums that declare the conformance are all query-bindable:
///
/// ```swift
/// enum Priority: Int, QueryBindable { case low, high }
/// Reminder.where { $0.priority == .high }     // binds 1
/// ```
public protocol QueryBindable: QueryRepresentable, QueryExpression where QueryOutput == Self, QueryValue == Self {}

extension QueryBindable {
    /// A bound parameter holding the value.
    @inlinable
    public var queryFragment: QueryFragment { QueryFragment(binding: Self.encode(self)) }
}
