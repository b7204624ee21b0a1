extension Select where Columns: TableDefinition, Output == Columns.Root {
    /// Pairs each row with the rows of `other` for which `condition` holds: `JOIN … ON …`.
    ///
    /// Filters of `other` (its `where` clauses) apply to the joined rows too; for a left join they
    /// restrict which rows match.
    ///
    /// ```swift
    /// Note.all.join(Tag.all) { $0.id == $1.noteID }      // Select<_, (Note, Tag)>
    /// ```
    public func join<Other: Table>(
        _ other: Select<Other.TableColumns, Other>,
        on condition: (Columns, Other.TableColumns) -> some QueryExpression<Bool>
    ) -> Select<(Columns, Other.TableColumns), (Output, Other)> {
        joined(other, kind: "JOIN", filtersJoinCondition: false, on: condition) { (decoder) throws(BoutiqueError) in
            (try Output(decoder: &decoder), try Other(decoder: &decoder))
        }
    }

    /// Pairs each row with the matching rows of `other`, or with `nil` when none match: `LEFT JOIN`.
    public func leftJoin<Other: Table>(
        _ other: Select<Other.TableColumns, Other>,
        on condition: (Columns, Other.TableColumns) -> some QueryExpression<Bool>
    ) -> Select<(Columns, Other.TableColumns), (Output, Other?)> {
        joined(other, kind: "LEFT JOIN", filtersJoinCondition: true, on: condition) { (decoder) throws(BoutiqueError) in
            let row = try Output(decoder: &decoder)
            let width = Other.TableColumns.allColumns.count
            if decoder.nextColumnsAreNull(width) {
                decoder.skip(Int32(width))
                return (row, nil)
            }
            return (row, try Other(decoder: &decoder))
        }
    }

    private func joined<Other: Table, NewOutput>(
        _ other: Select<Other.TableColumns, Other>, kind: String, filtersJoinCondition: Bool,
        on condition: (Columns, Other.TableColumns) -> some QueryExpression<Bool>,
        decoder: @escaping @Sendable (inout RowDecoder) throws(BoutiqueError) -> NewOutput
    ) -> Select<(Columns, Other.TableColumns), NewOutput> {
        var clauses = self.clauses
        var on = condition(columns, other.columns).queryFragment
        if filtersJoinCondition {
            // A left join keeps unmatched rows, so the other side's filters belong in ON, not WHERE.
            for filter in other.clauses.wheres { on = on + " AND " + filter }
        } else {
            clauses.wheres += other.clauses.wheres
        }
        clauses.joins.append(QueryFragment(kind + " ") + other.clauses.from + " ON " + on)
        clauses.orderBy += other.clauses.orderBy
        if clauses.selection == nil {
            clauses.defaultSelection = [clauses.defaultSelection, other.clauses.defaultSelection].joined(separator: ", ")
        }
        return Select<(Columns, Other.TableColumns), NewOutput>(
            columns: (columns, other.columns), clauses: clauses, rowSource: rowSource + " ⋈ " + other.rowSource,
            decoder: decoder)
    }
}

extension Table {
    /// Pairs each row with the rows of `other` for which `condition` holds.
    public static func join<Other: Table>(
        _ other: Select<Other.TableColumns, Other>,
        on condition: (TableColumns, Other.TableColumns) -> some QueryExpression<Bool>
    ) -> Select<(TableColumns, Other.TableColumns), (Self, Other)> {
        all.join(other, on: condition)
    }

    /// Pairs each row with the matching rows of `other`, or `nil`.
    public static func leftJoin<Other: Table>(
        _ other: Select<Other.TableColumns, Other>,
        on condition: (TableColumns, Other.TableColumns) -> some QueryExpression<Bool>
    ) -> Select<(TableColumns, Other.TableColumns), (Self, Other?)> {
        all.leftJoin(other, on: condition)
    }
}
