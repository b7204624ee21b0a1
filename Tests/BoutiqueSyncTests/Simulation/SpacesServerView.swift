import BoutiqueSync
import BoutiqueSyncServer

/// What the spaces simulator knows of the server, read from its store as trusted code: the whole log
/// with each entry's space, read as it grows, folded into the reference model; each row's spaces over
/// the sequence; and the members of each space, now and at any point of the sequence.
///
/// The checks compare what devices hold and what the server accepted against this, never against
/// what the devices or the server's own checks say.
final class SpacesServerView {
    let server: SyncServer
    let tenant: String
    let users: [String]
    /// Every space a row of the run can be in: the common one, each user's private one, and one per
    /// list key the users draw from.
    let spaces: [SyncSpace]

    /// The log read so far, in sequence order.
    private(set) var log: [LoggedChange] = []
    /// Every accepted change folded by the merge rule, apart from the library's code.
    private(set) var model = ReferenceModel()
    /// Each row's space after each of its log entries, in sequence order.
    private(set) var timelines: [SimulatedRow: [(sequence: Int64, space: SyncSpace)]] = [:]
    /// Rows the log deleted at some point.
    private(set) var everDeleted: Set<SimulatedRow> = []
    /// Every value each column of each row had in the log: the parents a row ever pointed at.
    private(set) var columnValues: [SimulatedRow: [String: Set<DatabaseValue>]] = [:]
    /// Which device and user made each id (replica or writer), as the devices report them.
    var makers: [String: (device: String, user: String)] = [:]

    init(server: SyncServer, tenant: String, users: [String], listKeys: [String]) {
        self.server = server
        self.tenant = tenant
        self.users = users
        spaces = [.common] + users.map { .private(user: $0) } + [.private(user: "")]
            + listKeys.map { .shared(table: "reminderslist", key: .text($0)) }
    }

    /// One log entry with what was known just before it.
    struct Entry {
        let logged: LoggedChange
        /// The row's space before the entry, `nil` for a row the log had not seen.
        let previousSpace: SyncSpace?
    }

    /// Reads the entries logged since the last call, and calls `inspect` with each before folding it
    /// into the model (so `inspect` sees the model as it was just before the entry).
    func refresh(_ inspect: (Entry, ReferenceModel) throws -> Void) async throws {
        let after = log.last?.entry.sequence ?? 0
        let spaces = self.spaces
        let (entries, all) = try await server.store.transaction(tenant: tenant) { store in
            let latest = try store.latestSequence()
            guard latest > after else { return ([LoggedChange](), 0) }
            return (try store.changes(after: after, through: latest, visibleIn: spaces, batch: nil),
                    try store.changes(after: after, limit: 1_000_000).count)
        }
        guard entries.count == all else {
            throw SpacesSimulationFailure("the log holds \(all - entries.count) entries in spaces the simulation cannot name")
        }
        for logged in entries {
            let change = logged.entry.change
            let row = SimulatedRow(table: change.table.lowercased(), key: change.key)
            try inspect(Entry(logged: logged, previousSpace: timelines[row]?.last?.space), model)
            model.apply(change)
            timelines[row, default: []].append((logged.entry.sequence, logged.space))
            if change.kind == .delete { everDeleted.insert(row) }
            for column in change.columns { columnValues[row, default: [:]][column.name, default: []].insert(column.value) }
            log.append(logged)
        }
    }

    /// The row's space just after sequence `sequence`, `nil` before its first entry.
    func space(of row: SimulatedRow, at sequence: Int64) -> SyncSpace? {
        timelines[row]?.last { $0.sequence <= sequence }?.space
    }

    /// Whether the reference model holds the row as existing.
    func isAlive(_ row: SimulatedRow) -> Bool {
        model.rows[ReferenceModel.RowID(table: row.table, key: row.key)]?.existence?.alive == true
    }

    /// The spaces `user` sees at `sequence` (now when `nil`): their shared spaces, their private space
    /// and the common space.
    func visibleSpaces(of user: String, at sequence: Int64?) async throws -> Set<SyncSpace> {
        let shared = try await server.store.transaction(tenant: tenant) { store in try store.memberships(of: user, at: sequence) }
        return Set(shared.keys).union([.common, .private(user: user)])
    }

    /// The spaces `user` saw from `cursor` on: the spaces at the cursor, then at each point where they
    /// joined or left one, in sequence order.
    func visibility(of user: String, from cursor: Int64) async throws -> [(from: Int64, spaces: Set<SyncSpace>)] {
        let points = try await server.store.transaction(tenant: tenant) { store -> [(Int64, [SyncSpace: SyncRole])] in
            var points = [(cursor, try store.memberships(of: user, at: cursor))]
            var position = cursor
            while let next = try store.nextMembershipChange(of: user, after: position) {
                points.append((next.sequence, try store.memberships(of: user, at: next.sequence)))
                position = next.sequence
            }
            return points
        }
        return points.map { ($0.0, Set($0.1.keys).union([.common, .private(user: user)])) }
    }

    /// Every user's roles in shared spaces now.
    func roles() async throws -> [String: [SyncSpace: SyncRole]] {
        let users = self.users
        return try await server.store.transaction(tenant: tenant) { store in
            var roles: [String: [SyncSpace: SyncRole]] = [:]
            for user in users { roles[user] = try store.memberships(of: user, at: nil) }
            return roles
        }
    }

    /// The members of the space of list `key` now.
    func members(ofList key: String) async throws -> Set<SyncMember> {
        try await server.store.transaction(tenant: tenant) { store in
            Set(try store.members(of: .shared(table: "reminderslist", key: .text(key))))
        }
    }

    /// Whether `user` owns the space at `sequence` by its membership history (a list created in a push
    /// is its creator's from the sequence of its insert).
    func owns(_ user: String, _ space: SyncSpace, at sequence: Int64) async throws -> Bool {
        try await server.store.transaction(tenant: tenant) { store in try store.memberships(of: user, at: sequence)[space] == .owner }
    }

    /// Every row the server holds, tombstones included, with its state and space.
    func rows() async throws -> [SimulatedRow: (state: RowRegister, space: SyncSpace)] {
        let spaces = self.spaces
        return try await server.store.transaction(tenant: tenant) { store in
            var rows: [SimulatedRow: (state: RowRegister, space: SyncSpace)] = [:]
            for space in spaces {
                var after: SnapshotPosition?
                repeat {
                    let page = try store.rows(in: space, after: after, limit: 500)
                    for row in page { rows[SimulatedRow(table: row.table.lowercased(), key: row.key)] = (row.state, space) }
                    after = page.count == 500 ? page.last.map { SnapshotPosition(table: $0.table, key: $0.key) } : nil
                } while after != nil
            }
            return rows
        }
    }
}

/// A problem the simulation found outside the checks' own lists (the run stops).
struct SpacesSimulationFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
