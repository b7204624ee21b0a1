import BoutiqueSQLite

extension TemporaryTrigger {
    /// The change a trigger fires on (an insert, an update, optionally of some columns only, or a
    /// delete), with the statements it runs for each changed row and an optional `WHEN` condition.
    ///
    /// ```swift
    /// .insert { new in Audit.insert { $0.what } values: { new.title } }
    /// .update(of: { $0.isDone }) { old, new in … } when: { old, new in new.isDone }
    /// .delete { old in … }
    /// ```
    public struct Operation: Sendable {
        /// The row as inserted or updated: `"new"."column"`.
        public typealias New = TriggerRow<On>
        /// The row as it was before an update or delete: `"old"."column"`.
        public typealias Old = TriggerRow<On>

        /// The kind of change, and for an update the columns it is limited to.
        enum Event: Sendable {
            case insert
            case update(columns: [String])
            case delete

            /// The word a default trigger name uses.
            var nameWord: String {
                switch self {
                case .insert: "insert"
                case .update: "update"
                case .delete: "delete"
                }
            }
        }

        let event: Event
        let statements: [QueryFragment]
        let condition: QueryFragment?

        /// `INSERT ON "t" FOR EACH ROW WHEN … BEGIN …; END`, values still bound.
        func fragment(on table: String) -> QueryFragment {
            var fragment: QueryFragment
            switch event {
            case .insert:
                fragment = QueryFragment("INSERT")
            case .update(let columns):
                fragment = QueryFragment("UPDATE")
                if !columns.isEmpty { fragment.append(" OF " + columns.map(SQLIdentifier.quote).joined(separator: ", ")) }
            case .delete:
                fragment = QueryFragment("DELETE")
            }
            fragment.append(" ON " + table + " FOR EACH ROW")
            if let condition { fragment.append(" WHEN " + condition) }
            fragment.append(" BEGIN")
            for statement in statements { fragment.append(" " + statement + ";") }
            fragment.append(" END")
            return fragment
        }

        static var new: New { TriggerRow("new") }
        static var old: Old { TriggerRow("old") }

        /// An `INSERT` trigger: `perform`'s statements run for each inserted row, which they read as
        /// `new`; with `condition`, only for the rows it holds for.
        ///
        /// ```swift
        /// Reminder.createTemporaryTrigger(after: .insert { new in
        ///     RemindersList.update { $0.reminderCount += 1 }.where { $0.id.eq(new.listID) }
        /// })
        /// ```
        public static func insert(
            @TriggerStatementsBuilder forEachRow perform: (_ new: New) -> [QueryFragment],
            when condition: ((_ new: New) -> any QueryExpression<Bool>)? = nil
        ) -> Self {
            Self(event: .insert, statements: perform(new), condition: condition?(new).queryFragment)
        }

        /// An `UPDATE` trigger: `perform`'s statements run for each updated row, which they read as
        /// `old` and `new`; with `condition`, only for the rows it holds for.
        public static func update(
            @TriggerStatementsBuilder forEachRow perform: (_ old: Old, _ new: New) -> [QueryFragment],
            when condition: ((_ old: Old, _ new: New) -> any QueryExpression<Bool>)? = nil
        ) -> Self {
            Self(event: .update(columns: []), statements: perform(old, new), condition: condition?(old, new).queryFragment)
        }

        /// An `UPDATE OF` trigger: fires only when an update assigns one of the columns `columns`
        /// names (`of: { $0.title }`, `of: { ($0.title, $0.isDone) }`).
        public static func update<each Value: QueryRepresentable>(
            of columns: (On.TableColumns) -> (repeat TableColumn<On, each Value>),
            @TriggerStatementsBuilder forEachRow perform: (_ old: Old, _ new: New) -> [QueryFragment],
            when condition: ((_ old: Old, _ new: New) -> any QueryExpression<Bool>)? = nil
        ) -> Self {
            Self(
                event: .update(columns: columnNames(columns)), statements: perform(old, new),
                condition: condition?(old, new).queryFragment)
        }

        /// A `DELETE` trigger: `perform`'s statements run for each deleted row, which they read as
        /// `old`; with `condition`, only for the rows it holds for.
        public static func delete(
            @TriggerStatementsBuilder forEachRow perform: (_ old: Old) -> [QueryFragment],
            when condition: ((_ old: Old) -> any QueryExpression<Bool>)? = nil
        ) -> Self {
            Self(event: .delete, statements: perform(old), condition: condition?(old).queryFragment)
        }

        /// The SQL names of the columns a closure lists.
        static func columnNames<each Value: QueryRepresentable>(
            _ columns: (On.TableColumns) -> (repeat TableColumn<On, each Value>)
        ) -> [String] {
            var names: [String] = []
            for column in repeat each columns(On.columns) { names.append(column.name) }
            return names
        }
    }
}
