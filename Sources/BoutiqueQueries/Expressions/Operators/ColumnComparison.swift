// `==` and `!=` between two columns holding one type, as join conditions read (`$0.listID == $1.id`).
//
// The general comparisons (Comparison.swift) are disfavoured, so that Swift's own `==` on plain
// values never weighs them, and a disfavoured choice never ends the type checker's search: it tried
// every one of the ~150 `==` visible to an app before settling on the expression one, once for
// each way the rest of the query could still be read. This pair names its argument types, which
// the type checker matches first; once it fits, the others are not tried. A join that chose a tuple
// and filtered (`Reminder.select { ($0.id, $0.title) }.join(RemindersList.where { … }) { $0.listID
// == $1.id }.where { … }.order { … }`) went from 102 ms to type-check to 34 ms with it and the
// single-table clauses' `Columns: TableDefinition` (Scripts/measure-shape-type-checking.sh, on a
// shared 2-core machine). The SQL is the general comparison's.

extension TableColumn {
    /// `(x = y)` between two columns of one type, of this table or another; `(x IS y)` when they are
    /// optional, so that `nil == nil` holds.
    public static func == <Other: Table>(lhs: Self, rhs: TableColumn<Other, Value>) -> SQLExpression<Bool> {
        SQLExpression(Operators.binary(lhs.queryFragment, Value.isNullable ? "IS" : "=", rhs.queryFragment))
    }

    /// `(x <> y)` between two columns of one type; `(x IS NOT y)` when they are optional.
    public static func != <Other: Table>(lhs: Self, rhs: TableColumn<Other, Value>) -> SQLExpression<Bool> {
        SQLExpression(Operators.binary(lhs.queryFragment, Value.isNullable ? "IS NOT" : "<>", rhs.queryFragment))
    }
}
