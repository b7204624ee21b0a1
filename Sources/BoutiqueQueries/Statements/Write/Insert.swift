import BoutiqueSQLite

/// An `INSERT` of one or more rows, optionally with an `ON CONFLICT` clause.
///
/// ```swift
/// try Note.insert { Note(id: UUID(), title: "New Note", body: "") }.execute(connection)
/// ```
///
/// All rows are written by one execution, atomically: if one row fails, none is kept.
public struct Insert<Root: Table>: QueryStatement {
    public typealias Row = Void

    /// The rows to write.
    public let rows: [InsertRow<Root>]
    /// What to do when a row conflicts with an existing one.
    @usableFromInline let conflict: InsertConflict
    /// The values an `ON CONFLICT … DO UPDATE` clause binds, after each row's values.
    @usableFromInline let conflictBindings: [DatabaseValue]

    @usableFromInline
    init(rows: [InsertRow<Root>], conflict: InsertConflict = .abort, conflictBindings: [DatabaseValue] = []) {
        self.rows = rows
        self.conflict = conflict
        self.conflictBindings = conflictBindings
    }

    public var rowSource: String { Root.tableName }

    public func decodeRow(_ decoder: inout RowDecoder) throws(BoutiqueError) {}

    /// The names of the columns an insert writes: every column that is not generated.
    static var insertColumns: [String] {
        Root.TableColumns.allColumns.filter(\.isWritable).map(\.name)
    }

    /// `INSERT INTO "t" ("a", "b") VALUES` with `rowCount` placeholder rows (and no bindings), built
    /// once for each table, conflict clause and (small) row count.
    @usableFromInline
    func statementText(rowCount: Int) -> String {
        // A large insert's text is long and rarely repeated, and building it is little next to the
        // rows it writes: only the small ones are kept.
        guard rowCount <= Self.largestCachedRowCount else { return makeStatementText(rowCount: rowCount) }
        let key = SQLTextCache.Key.insert(ObjectIdentifier(Root.self), conflict: conflict, rowCount: rowCount)
        return SQLTextCache.shared.text(for: key) { makeStatementText(rowCount: rowCount) }
    }

    private static var largestCachedRowCount: Int { 16 }

    private func makeStatementText(rowCount: Int) -> String {
        let columns = Self.insertColumns
        let verb: String
        switch conflict {
        case .ignore: verb = "INSERT OR IGNORE INTO "
        case .replace: verb = "INSERT OR REPLACE INTO "
        default: verb = "INSERT INTO "
        }
        let placeholders = "(" + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
        var sql = verb + Root.quotedTableName + " (" + columns.map(SQLIdentifier.quote).joined(separator: ", ")
            + ") VALUES " + Array(repeating: placeholders, count: Swift.max(rowCount, 1)).joined(separator: ", ")
        switch conflict {
        case .update(let target, let updated):
            sql += Self.conflictTarget(target)
            if updated.isEmpty {
                sql += " DO NOTHING"
            } else {
                sql += " DO UPDATE SET "
                    + updated.map { SQLIdentifier.quote($0) + " = excluded." + SQLIdentifier.quote($0) }
                        .joined(separator: ", ")
            }
        case .assign(let target, let assignments):
            sql += Self.conflictTarget(target) + " DO UPDATE SET " + assignments
        case .nothing(let target):
            sql += Self.conflictTarget(target) + " DO NOTHING"
        case .clause(let clause):
            sql += " " + clause
        case .abort, .ignore, .replace:
            break
        }
        return sql
    }

    /// ` ON CONFLICT ("a", "b")`, or ` ON CONFLICT` for any constraint.
    private static func conflictTarget(_ columns: [String]) -> String {
        columns.isEmpty ? " ON CONFLICT" : " ON CONFLICT (" + columns.map(SQLIdentifier.quote).joined(separator: ", ") + ")"
    }

    /// The whole statement with every row's values bound: what ``sql`` shows.
    public var query: QueryFragment {
        QueryFragment(statementText(rowCount: rows.count), bindings: rows.flatMap(\.values) + conflictBindings)
    }

    /// Skips rows that conflict with existing ones: `INSERT OR IGNORE`.
    public func orIgnore() -> Self { Self(rows: rows, conflict: .ignore) }

    /// Replaces rows that conflict with existing ones: `INSERT OR REPLACE`.
    public func orReplace() -> Self { Self(rows: rows, conflict: .replace) }
}

/// What an insert does when a row conflicts with an existing one. Not generic, so that it can key
/// the insert texts ``SQLTextCache`` keeps.
@usableFromInline
enum InsertConflict: Hashable, Sendable {
    case abort
    case ignore
    case replace
    /// `ON CONFLICT (target) DO UPDATE SET c = excluded.c, …`
    case update(target: [String], columns: [String])
    /// `ON CONFLICT (target) DO UPDATE SET <assignments>`: the assignments' SQL, whose values are bound
    /// after each row's (``Insert/conflictBindings``), so that the text does not depend on them.
    case assign(target: [String], assignments: String)
    /// `ON CONFLICT (target) DO NOTHING`; an empty target stands for any uniqueness constraint.
    case nothing(target: [String])
    /// A whole `ON CONFLICT …` clause (with `WHERE` filters), whose values are bound after each row's.
    case clause(String)
}

extension Table {
    /// Inserts the rows the builder lists.
    @inlinable
    public static func insert(@InsertValuesBuilder<Self> _ rows: () -> InsertRows<Self>) -> Insert<Self> {
        Insert(rows: rows().rows)
    }

    /// Inserts `rows`.
    public static func insert(_ rows: [Self]) -> Insert<Self> {
        Insert(rows: rows.map { .row($0) })
    }
}

extension PrimaryKeyedTable {
    /// Inserts the rows, or updates every non-key column of the existing row with the same primary key:
    /// `INSERT … ON CONFLICT ("id") DO UPDATE SET "title" = excluded."title", …`.
    public static func upsert(@InsertValuesBuilder<Self> _ rows: () -> InsertRows<Self>) -> Insert<Self> {
        let key = columns.primaryKey.name
        let updated = Insert<Self>.insertColumns.filter { $0 != key }
        return Insert(rows: rows().rows, conflict: .update(target: [key], columns: updated))
    }

    /// Upserts one draft: `Reminder.upsert(draft)`, a spelling StructuredQueries keeps (deprecated there
    /// too) and its "Primary keyed tables" article shows.
    ///
    /// ```swift
    /// Reminder.upsert { Reminder.Draft(id: 1, title: "Groceries") }   // the spelling to prefer
    /// ```
    @available(*, deprecated, message: "write a trailing closure: 'Table.upsert { draft }'")
    public static func upsert(_ row: Draft) -> Insert<Self> {
        upsert { row }
    }
}

/// An insert can be built on one actor and run on another when its rows can.
extension Insert: Sendable where Root: Sendable {}
