extension Select where Columns: TableDefinition, Output == Columns.Root {
    /// Pairs each row with the rows of `other` for which `condition` holds: `JOIN … ON …`.
    ///
    /// Filters of `other` (its `where` clauses) apply to the joined rows too; for a left join they
    /// restrict which rows match. Joins chain: each one adds a table, and the closures of the result
    /// (`on`, `where`, `order`, `select`, …) receive one value per table.
    ///
    /// ```swift
    /// Reminder.all
    ///     .join(ReminderTag.all) { $0.id == $1.reminderID }
    ///     .join(Tag.all) { $1.tagID == $2.id }                   // Select<_, (Reminder, ReminderTag, Tag)>
    ///     .where { reminder, _, tag in !reminder.isDone && tag.name == "home" }
    /// ```
    public func join<Other: Table>(
        _ other: Select<Other.TableColumns, Other>,
        on condition: (Columns, Other.TableColumns) -> some QueryExpression<Bool>
    ) -> Select<(Columns, Other.TableColumns), (Output, Other)> {
        joined(
            other, kind: .inner, on: condition(columns, other.columns).queryFragment, columns: (columns, other.columns)
        ) { (decoder) throws(BoutiqueError) in
            (try Output(decoder: &decoder), try Other(decoder: &decoder))
        }
    }

    /// Pairs each row with the matching rows of `other`, or with `nil` when none match: `LEFT JOIN`.
    ///
    /// The later closures (`where`, `order`, `select`, …) read `other`'s columns as optional
    /// (``OptionalTableColumns``), so a row without a match reads `nil` from them:
    ///
    /// ```swift
    /// Reminder.all.leftJoin(RemindersList.all) { $0.listID == $1.id }
    ///     .select { ($0.title, $1.name) }              // Select<_, (String, String?)>
    /// ```
    public func leftJoin<Other: Table>(
        _ other: Select<Other.TableColumns, Other>,
        on condition: (Columns, Other.TableColumns) -> some QueryExpression<Bool>
    ) -> Select<(Columns, OptionalTableColumns<Other.TableColumns>), (Output, Other?)> {
        joined(
            other, kind: .left, on: condition(columns, other.columns).queryFragment,
            columns: (columns, OptionalTableColumns(other.columns))
        ) { (decoder) throws(BoutiqueError) in
            (try Output(decoder: &decoder), try Other.decodeJoined(from: &decoder))
        }
    }
}

/// How a joined table's rows pair with the rows before it.
enum JoinKind {
    case inner
    case left
    case right
    case full

    var keyword: String {
        switch self {
        case .inner: "JOIN"
        case .left: "LEFT JOIN"
        case .right: "RIGHT JOIN"
        case .full: "FULL JOIN"
        }
    }
}

extension Select {
    /// Adds `other` to the `FROM` clause with `condition`, whatever the tables joined so far.
    ///
    /// `decoder` reads every joined table's columns unless `keepingSelection` is set: a select of
    /// table rows that chose its columns (`.select { $0 }`, `.select { ($0, $1) }`) chose exactly
    /// those, which do not include `other`'s, so the selection goes back to every table's columns.
    /// The joins of selects that chose values keep them (`Reminder.select(\.title).join(…)`).
    func joined<OtherColumns, OtherOutput, NewColumns, NewOutput>(
        _ other: Select<OtherColumns, OtherOutput>, kind: JoinKind, on condition: QueryFragment,
        columns newColumns: NewColumns, keepingSelection: Bool = false,
        decoder: @escaping @Sendable (inout RowDecoder) throws(BoutiqueError) -> NewOutput
    ) -> Select<NewColumns, NewOutput> {
        var clauses = self.clauses
        if !keepingSelection {
            clauses.selection = nil
            clauses.selectedTerms = []
        }
        var on = condition
        switch kind {
        case .left:
            // A left join keeps this side's unmatched rows: the other side's filters choose which of
            // its rows match, in ON, so that they do not drop those rows again in WHERE.
            for filter in other.clauses.wheres { on = on + " AND " + filter }
        case .inner, .right, .full:
            // A right or full join keeps the other side's unmatched rows, so its filters stay in
            // WHERE, where they drop its rows as they did before the join (an ON term would only
            // unpair them, keeping every row of a full join's other side).
            clauses.wheres += other.clauses.wheres
        }
        clauses.joins.append(QueryFragment(kind.keyword + " ") + other.clauses.from + " ON " + on)
        clauses.orderBy += other.clauses.orderBy
        if clauses.selection == nil {
            clauses.defaultSelection = [clauses.defaultSelection, other.clauses.defaultSelection].joined(separator: ", ")
        }
        return Select<NewColumns, NewOutput>(
            columns: newColumns, clauses: clauses, rowSource: rowSource + " ⋈ " + other.rowSource, decoder: decoder)
    }
}

extension Table {
    /// Reads the columns of a left-joined table: `nil` when they are all NULL (no row matched).
    static func decodeJoined(from decoder: inout RowDecoder) throws(BoutiqueError) -> Self? {
        let width = TableColumns.allColumns.count
        if decoder.nextColumnsAreNull(width) {
            decoder.skip(Int32(width))
            return nil
        }
        return try Self(decoder: &decoder)
    }

    /// Pairs each row with the rows of `other` for which `condition` holds.
    public static func join<Other: Table>(
        _ other: Select<Other.TableColumns, Other>,
        on condition: (TableColumns, Other.TableColumns) -> some QueryExpression<Bool>
    ) -> Select<(TableColumns, Other.TableColumns), (Self, Other)> {
        all.join(other, on: condition)
    }

    /// Pairs each row with the matching rows of `other`, or `nil`; the later closures read `other`'s
    /// columns as optional.
    public static func leftJoin<Other: Table>(
        _ other: Select<Other.TableColumns, Other>,
        on condition: (TableColumns, Other.TableColumns) -> some QueryExpression<Bool>
    ) -> Select<(TableColumns, OptionalTableColumns<Other.TableColumns>), (Self, Other?)> {
        all.leftJoin(other, on: condition)
    }
}
