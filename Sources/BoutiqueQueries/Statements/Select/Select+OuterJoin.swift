// Right and full outer joins (SQLite 3.39 and later), for a select of one table joined to another.
// Filters already on this select stay in `WHERE`, so they also drop the rows a right or full join
// would keep unmatched on this side; filter those in the `on` condition instead.

extension Select where Columns: TableDefinition, Output == Columns.Root {
    /// Pairs every row of `other` with the matching rows of this select, or with `nil` when none
    /// match: `RIGHT JOIN`.
    ///
    /// ```swift
    /// Reminder.all.rightJoin(RemindersList.all) { $0.listID == $1.id }   // Select<_, (Reminder?, RemindersList)>
    /// ```
    ///
    /// The later closures read this select's columns as optional (``OptionalTableColumns``).
    public func rightJoin<Other: Table>(
        _ other: Select<Other.TableColumns, Other>,
        on condition: (Columns, Other.TableColumns) -> some QueryExpression<Bool>
    ) -> Select<(OptionalTableColumns<Columns>, Other.TableColumns), (Output?, Other)> {
        joined(
            other, kind: .right, on: condition(columns, other.columns).queryFragment,
            columns: (OptionalTableColumns(columns), other.columns)
        ) { (decoder) throws(BoutiqueError) in
            (try Output.decodeJoined(from: &decoder), try Other(decoder: &decoder))
        }
    }

    /// Every row of both sides, paired where `condition` holds and with `nil` for the side that has
    /// no match: `FULL JOIN`. The later closures read the columns of both as optional.
    public func fullJoin<Other: Table>(
        _ other: Select<Other.TableColumns, Other>,
        on condition: (Columns, Other.TableColumns) -> some QueryExpression<Bool>
    ) -> Select<(OptionalTableColumns<Columns>, OptionalTableColumns<Other.TableColumns>), (Output?, Other?)> {
        joined(
            other, kind: .full, on: condition(columns, other.columns).queryFragment,
            columns: (OptionalTableColumns(columns), OptionalTableColumns(other.columns))
        ) { (decoder) throws(BoutiqueError) in
            (try Output.decodeJoined(from: &decoder), try Other.decodeJoined(from: &decoder))
        }
    }
}

extension Table {
    /// Every row of `other`, paired with the matching rows of this table or `nil`: `RIGHT JOIN`.
    public static func rightJoin<Other: Table>(
        _ other: Select<Other.TableColumns, Other>,
        on condition: (TableColumns, Other.TableColumns) -> some QueryExpression<Bool>
    ) -> Select<(OptionalTableColumns<TableColumns>, Other.TableColumns), (Self?, Other)> {
        all.rightJoin(other, on: condition)
    }

    /// Every row of both tables, paired where `condition` holds: `FULL JOIN`.
    public static func fullJoin<Other: Table>(
        _ other: Select<Other.TableColumns, Other>,
        on condition: (TableColumns, Other.TableColumns) -> some QueryExpression<Bool>
    ) -> Select<(OptionalTableColumns<TableColumns>, OptionalTableColumns<Other.TableColumns>), (Self?, Other?)> {
        all.fullJoin(other, on: condition)
    }
}
