// Joins of selects that already choose a column, as StructuredQueries reads them: the rows are the
// values chosen on either side, this select's first; a side that chose none adds its table to the
// closures (`$0`, `$1`) and nothing to the rows.
//
//     Reminder.select(\.title).join(RemindersList.all) { $0.listID == $1.id }              // String
//     RemindersList.select(\.title).join(Reminder.select(\.title)) { $0.id == $1.listID }  // (String, String)
//     RemindersList.all.join(Reminder.select(\.title)) { $0.id == $1.listID }              // String
//
// A chosen column is a value (`QueryBindable`: a number, text, a date, an optional of one), which is
// what tells these selects from one of a table's rows. The overloads take one value a side and no
// parameter packs: every `join` of a chain is checked against each of them, and a pack there made
// the chains of joins in the shapes module take over a second to type-check.
// Selects that chose a tuple of values join through Select+JoinChosenTuples.swift, generated
// the same way, one arity per overload.

extension Select where Columns: TableDefinition, Output: QueryBindable {
    /// Pairs each row with the rows of `other` for which `condition` holds, keeping the column this
    /// select chose: `Reminder.select(\.title).join(RemindersList.all) { $0.listID == $1.id }` reads
    /// each reminder's title once per matching list.
    public func join<Other: Table>(
        _ other: Select<Other.TableColumns, Other>,
        on condition: (Columns, Other.TableColumns) -> some QueryExpression<Bool>
    ) -> Select<(Columns, Other.TableColumns), Output> {
        joined(other, kind: .inner, on: condition(columns, other.columns).queryFragment, columns: (columns, other.columns), keepingSelection: true, decoder: decoder)
    }

    /// Pairs each row with the matching rows of `other`, keeping the column this select chose; a row
    /// without a match is kept once: `LEFT JOIN`. The later closures read `other`'s columns as optional.
    public func leftJoin<Other: Table>(
        _ other: Select<Other.TableColumns, Other>,
        on condition: (Columns, Other.TableColumns) -> some QueryExpression<Bool>
    ) -> Select<(Columns, OptionalTableColumns<Other.TableColumns>), Output> {
        joined(
            other, kind: .left, on: condition(columns, other.columns).queryFragment,
            columns: (columns, OptionalTableColumns(other.columns)), keepingSelection: true, decoder: decoder)
    }

    /// Pairs each row with the rows of `other` for which `condition` holds, reading the columns both
    /// selects chose, this one's first: `(String, String)` for two selects of one title each.
    public func join<OtherColumns: TableDefinition, OtherOutput: QueryBindable>(
        _ other: Select<OtherColumns, OtherOutput>,
        on condition: (Columns, OtherColumns) -> some QueryExpression<Bool>
    ) -> Select<(Columns, OtherColumns), (Output, OtherOutput)> {
        let (first, second) = (decoder, other.decoder)
        return joinedSelection(of: other, on: condition(columns, other.columns).queryFragment) { (decoder) throws(BoutiqueError) in
            (try first(&decoder), try second(&decoder))
        }
    }
}

extension Select where Columns: TableDefinition, Output == Columns.Root {
    /// Adds `other`'s table and filters to this select and reads the column `other` chose, where this
    /// select chose none: `RemindersList.all.join(Reminder.select(\.title)) { … }` reads titles.
    public func join<OtherColumns: TableDefinition, OtherOutput: QueryBindable>(
        _ other: Select<OtherColumns, OtherOutput>,
        on condition: (Columns, OtherColumns) -> some QueryExpression<Bool>
    ) -> Select<(Columns, OtherColumns), OtherOutput> {
        joinedSelection(of: other, on: condition(columns, other.columns).queryFragment, reading: other.decoder)
    }
}

extension Select where Columns: TableDefinition {
    /// An inner join with `other` whose selection is this select's chosen column (none for a select
    /// of table rows) followed by `other`'s, read by `decoder`.
    func joinedSelection<OtherColumns: TableDefinition, OtherOutput, NewOutput>(
        of other: Select<OtherColumns, OtherOutput>, on condition: QueryFragment,
        reading decoder: @escaping @Sendable (inout RowDecoder) throws(BoutiqueError) -> NewOutput
    ) -> Select<(Columns, OtherColumns), NewOutput> {
        let terms = (clauses.selection == nil ? [] : clauses.selectedTerms) + other.clauses.selectedTerms
        return joined(other, kind: .inner, on: condition, columns: (columns, other.columns), keepingSelection: true, decoder: decoder)
            .with {
                $0.selection = terms.joined(separator: ", ")
                $0.selectedTerms = terms
            }
    }
}

extension Table {
    /// Adds `other`'s table and filters and reads the column `other` chose:
    /// `RemindersList.join(Reminder.select(\.title)) { $0.id == $1.listID }` reads the titles of the
    /// reminders that have a list.
    public static func join<OtherColumns: TableDefinition, OtherOutput: QueryBindable>(
        _ other: Select<OtherColumns, OtherOutput>,
        on condition: (TableColumns, OtherColumns) -> some QueryExpression<Bool>
    ) -> Select<(TableColumns, OtherColumns), OtherOutput> {
        all.join(other, on: condition)
    }
}
