/// Which space each synced row lives in: the rules a sync server enforces for sharing between users.
///
/// ```swift
/// let rules = try SyncRules(
///     roots: ["remindersList"],
///     follows: ["reminder": "listID", "reminderTag": "reminderID"],
///     private: ["tag"])
/// let server = SyncServer(store: store, rules: rules)
/// ```
///
/// The same rules as JSON, for `boutique serve --rules FILE`:
///
/// ```json
/// {"roots": ["remindersList"], "follows": {"reminder": "listID", "reminderTag": "reminderID"}, "private": ["tag"]}
/// ```
///
/// - Each row of a **root** table is a shared space, owned by the user who inserted it.
/// - A **follower** table's row lives in the space of the row its foreign-key column points to (which
///   table that is, the devices' schema says); chains of any length. A many-to-many link row follows one
///   of its parents.
/// - Rows of a **private** table are seen by the devices of the user who inserted them only.
/// - Every other table is in the tenant's common space, as without rules.
///
/// Names are matched without regard to case, as SQLite matches them.
public struct SyncRules: Hashable, Sendable, Codable {
    /// What the rules make of a table.
    public enum Placement: Hashable, Sendable {
        /// Each row is a shared space.
        case root
        /// Each row lives in the space of the row `column` points to.
        case follower(column: String)
        /// Each row lives in its writer's private space.
        case `private`
        /// The tenant's common space.
        case common
    }

    /// Tables whose rows are shared spaces, as written.
    public let roots: [String]
    /// Follower table → its foreign-key column, as written.
    public let follows: [String: String]
    /// Tables whose rows are private to their writer, as written.
    public let privateTables: [String]
    /// Lowercased table → placement.
    private let placements: [String: Placement]

    /// The most tables rules may name: rules are a schema's worth, not data.
    public static let maximumTables = 1_000

    /// Rules from their parts.
    ///
    /// - Throws: ``/BoutiqueDB/BoutiqueError/invalidArgument(_:)`` naming the problem: an empty name,
    ///   a table named twice, a root table whose name holds `:`, too many tables.
    public init(roots: [String] = [], follows: [String: String] = [:], private privateTables: [String] = []) throws {
        self.roots = roots
        self.follows = follows
        self.privateTables = privateTables
        var placements: [String: Placement] = [:]
        func add(_ table: String, _ placement: Placement) throws(BoutiqueError) {
            guard !table.isEmpty, table.utf8.count <= 256 else {
                throw BoutiqueError.invalidArgument("sync rules: a table name must have 1 to 256 bytes, not '\(table.prefix(40))'")
            }
            guard placements.updateValue(placement, forKey: table.lowercased()) == nil else {
                throw BoutiqueError.invalidArgument("sync rules: table '\(table)' is named twice; a table is a root, a follower or private")
            }
        }
        guard roots.count + follows.count + privateTables.count <= Self.maximumTables else {
            throw BoutiqueError.invalidArgument("sync rules: more than \(Self.maximumTables) tables")
        }
        for root in roots {
            guard !root.contains(":") else { throw BoutiqueError.invalidArgument("sync rules: root table '\(root)' has a ':' in its name") }
            try add(root, .root)
        }
        for (table, column) in follows.sorted(by: { $0.key < $1.key }) {
            guard !column.isEmpty, column.utf8.count <= 256 else {
                throw BoutiqueError.invalidArgument("sync rules: follower '\(table)' needs the name of its foreign-key column")
            }
            try add(table, .follower(column: column.lowercased()))
        }
        for table in privateTables { try add(table, .private) }
        self.placements = placements
    }

    /// What the rules make of `table` (any case).
    public func placement(of table: String) -> Placement { placements[table.lowercased()] ?? .common }

    /// Whether the rules name no table: a server with them behaves as one without.
    public var isEmpty: Bool { placements.isEmpty }

    // MARK: Checking against the schema

    /// Checks the rules against the tables devices described: what ``mismatches(with:)`` finds.
    /// `shapes` empty (a server that has seen no device yet) passes.
    ///
    /// - Throws: ``/BoutiqueDB/BoutiqueError/invalidArgument(_:)`` naming the tables and columns at fault.
    public func check(against shapes: [SyncTableShape]) throws {
        let problems = mismatches(with: shapes)
        guard problems.isEmpty else { throw BoutiqueError.invalidArgument("sync rules: " + problems.joined(separator: "; ")) }
    }

    /// What does not match between the rules and the tables devices described, one sentence each.
    /// Empty when everything matches, or when `shapes` is empty (nothing described yet, so nothing to
    /// check against).
    ///
    /// - A follower whose table the devices describe must have its column there, as a foreign key.
    /// - Followers must not form a cycle.
    /// - A table the rules name that no device describes is a mismatch when some table the devices
    ///   describe is not named by the rules: it may be that table misspelt, and that table's rows
    ///   would be in the common space, where every user of the tenant sees them. When every described
    ///   table is named, it is a table these devices do not sync (yet), and no mismatch: rules may
    ///   name more tables than a tenant's devices sync, as long as they name all those they do.
    ///
    /// A server places no pushed row by rules that do not match.
    public func mismatches(with shapes: [SyncTableShape]) -> [String] {
        guard !shapes.isEmpty else { return [] }
        let byName = Dictionary(shapes.map { ($0.table, $0) }, uniquingKeysWith: { first, _ in first })
        var problems: [String] = []
        let named = (roots + follows.keys.sorted() + privateTables)
        let common = byName.keys.filter { placements[$0] == nil }.sorted()
        if !common.isEmpty {
            let described = common.prefix(5).map { "'\($0)'" }.joined(separator: ", ") + (common.count > 5 ? ", …" : "")
            for table in named where byName[table.lowercased()] == nil {
                problems.append(
                    "they name table '\(table)', which no device describes, while the devices' \(described) (named by no rule) would be in the common space")
            }
        }
        for (table, column) in follows.sorted(by: { $0.key < $1.key }) {
            guard let shape = byName[table.lowercased()] else { continue }
            if !shape.columns.contains(column.lowercased()) {
                problems.append("table '\(table)' has no column '\(column)'")
            } else if shape.references[column.lowercased()] == nil {
                problems.append("column '\(column)' of '\(table)' is not a foreign key to a synced table")
            }
        }
        for table in follows.keys.sorted() {
            if let cycle = cycle(from: table.lowercased(), shapes: byName) {
                problems.append("followers form a cycle: \(cycle.joined(separator: " → "))")
                break
            }
        }
        return problems
    }

    /// The table a follower's column points to, by the devices' schema.
    public func parent(of table: String, shapes: [String: SyncTableShape]) -> String? {
        guard case .follower(let column) = placement(of: table) else { return nil }
        return shapes[table.lowercased()]?.references[column]
    }

    /// The tables whose rows live in shared spaces (roots and followers, lowercased), parents before
    /// the rows that follow them: roots, then each follower after the table it follows, by the devices'
    /// schema (a follower whose parent the schema does not say comes right after the roots). The order
    /// a space's rows are served in, so that a device receiving them page by page gets each parent
    /// before its children.
    public func sharedTables(shapes: [String: SyncTableShape]) -> [String] {
        var depths: [String: Int] = [:]
        for root in roots { depths[root.lowercased()] = 0 }
        for follower in follows.keys {
            var depth = 1
            var current = follower.lowercased()
            // Bounded by the number of followers: a cycle (which `check(against:)` refuses) ends it.
            while depth <= follows.count, let parent = parent(of: current, shapes: shapes), case .follower = placement(of: parent) {
                depth += 1
                current = parent
            }
            depths[follower.lowercased()] = depth
        }
        return depths.sorted { ($0.value, $0.key) < ($1.value, $1.key) }.map(\.key)
    }

    private func cycle(from start: String, shapes: [String: SyncTableShape]) -> [String]? {
        var path = [start]
        var current = start
        while let parent = parent(of: current, shapes: shapes) {
            if let index = path.firstIndex(of: parent) { return Array(path[index...]) + [parent] }
            path.append(parent)
            current = parent
        }
        return nil
    }

    // MARK: JSON

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case roots, follows
        case privateTables = "private"
    }

    /// Rules from JSON; a key other than `roots`, `follows` and `private` is refused, so a misspelt
    /// rule does not silently share nothing.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AnyKey.self)
        let known = Set(CodingKeys.allCases.map(\.stringValue))
        if let unknown = container.allKeys.first(where: { !known.contains($0.stringValue) }) {
            throw DecodingError.dataCorrupted(.init(
                codingPath: [unknown], debugDescription: "unknown rule '\(unknown.stringValue.prefix(60))'; rules have roots, follows and private"))
        }
        let roots = try container.decodeIfPresent([String].self, forKey: AnyKey("roots")) ?? []
        let follows = try container.decodeIfPresent([String: String].self, forKey: AnyKey("follows")) ?? [:]
        let privateTables = try container.decodeIfPresent([String].self, forKey: AnyKey("private")) ?? []
        do {
            try self.init(roots: roots, follows: follows, private: privateTables)
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: String(describing: error)))
        }
    }

    /// Writes the JSON form, as the rules were spelled.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(roots, forKey: .roots)
        try container.encode(follows, forKey: .follows)
        try container.encode(privateTables, forKey: .privateTables)
    }

    /// Rules are equal when they place every table alike, however they were spelled.
    public static func == (lhs: SyncRules, rhs: SyncRules) -> Bool { lhs.placements == rhs.placements }
    /// Hashes the placements, as `==` compares them.
    public func hash(into hasher: inout Hasher) { hasher.combine(placements) }

    private struct AnyKey: CodingKey {
        let stringValue: String
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }
}
