/// A write statement that returns values of the rows it wrote: `… RETURNING …`.
///
/// ```swift
/// let ids = try Note.insert { Note.Draft(title: "A", body: "") }
///     .returning { $0.id }
///     .fetchAll(connection)
/// ```
public struct Returning<Root: Table, Base: QueryStatement, Output>: QueryStatement {
    public typealias Row = Output

    let base: Base
    let selection: QueryFragment
    let decoder: (inout RowDecoder) throws(BoutiqueError) -> Output

    public var rowSource: String { Root.tableName }

    public var query: QueryFragment { base.query + " RETURNING " + selection }

    public func decodeRow(_ decoder: inout RowDecoder) throws(BoutiqueError) -> Output {
        try self.decoder(&decoder)
    }
}

/// The write statements that accept `RETURNING`.
public protocol ReturningStatement: QueryStatement {
    /// The table the statement writes.
    associatedtype Root: Table
}

extension Insert: ReturningStatement {}
extension Update: ReturningStatement {}
extension Delete: ReturningStatement {}

extension ReturningStatement {
    /// Returns an expression of each written row.
    public func returning<E: QueryExpression>(
        _ selection: (Root.TableColumns) -> E
    ) -> Returning<Root, Self, E.QueryValue.QueryOutput> where E.QueryValue: QueryRepresentable {
        let expression = selection(Root.columns)
        return Returning(base: self, selection: Self.unqualified(expression.queryFragment)) {
            (decoder) throws(BoutiqueError) in try E.QueryValue.decode(from: &decoder)
        }
    }

    /// Returns two expressions of each written row.
    public func returning<E1: QueryExpression, E2: QueryExpression>(
        _ selection: (Root.TableColumns) -> (E1, E2)
    ) -> Returning<Root, Self, (E1.QueryValue.QueryOutput, E2.QueryValue.QueryOutput)>
    where E1.QueryValue: QueryRepresentable, E2.QueryValue: QueryRepresentable {
        let (first, second) = selection(Root.columns)
        let fragment = [first.queryFragment, second.queryFragment].joined(separator: ", ")
        return Returning(base: self, selection: Self.unqualified(fragment)) { (decoder) throws(BoutiqueError) in
            (try E1.QueryValue.decode(from: &decoder), try E2.QueryValue.decode(from: &decoder))
        }
    }

    /// Returns each written row whole.
    public func returning() -> Returning<Root, Self, Root> {
        Returning(base: self, selection: Self.unqualified(Root.columns.queryFragment)) {
            (decoder) throws(BoutiqueError) in try Root(decoder: &decoder)
        }
    }

    /// SQLite's `RETURNING` does not accept table-qualified column names; drop the `"table".` prefix.
    static func unqualified(_ fragment: QueryFragment) -> QueryFragment {
        QueryFragment(fragment.sql.replacingOccurrences(of: Root.quotedTableName + ".", with: ""), bindings: fragment.bindings)
    }
}

import Foundation
