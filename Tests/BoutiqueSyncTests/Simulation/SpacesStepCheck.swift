import BoutiqueSync
import BoutiqueSyncServer

/// What must hold after every step of the spaces simulator, whatever the network, the devices and the
/// clocks did:
///
/// - every change the server accepted was its writer's to make: they could write in the row's space
///   before the change and after it (a viewer cannot, nor a non-member; a list's delete needs its
///   owner);
/// - no device pushed a delete its user did not make, unless a parent of the row went (a cascade, or
///   a repair of a row left without its parent);
/// - no device holds, in its tables or in sync's row states, a row from another user that the row's
///   space did not let its user see: the row must be in a space the user was a member of at the
///   device's cursor, or later (a device moving a space in holds rows newer than its cursor);
/// - foreign keys hold on every device.
struct SpacesStepCheck {
    let view: SpacesServerView
    /// Each user's roles before the step: a sync step changes no membership, except that a user who
    /// creates a list owns it.
    let rolesBefore: [String: [SyncSpace: SyncRole]]
    /// The deletes each device's user made, by device name.
    let deliberate: [String: Set<SimulatedRow>]

    private static let parentColumns: [String: [(column: String, table: String)]] = [
        "reminder": [("listid", "reminderslist")],
        "remindertag": [("reminderid", "reminder"), ("tagid", "tag")],
    ]

    /// The server's new log entries, then every device.
    func run(devices: [SimulatedDevice]) async throws -> [String] {
        var failures: [String] = []
        var pendingOwnership: [(entry: SpacesServerView.Entry, user: String, space: SyncSpace, problem: String)] = []
        try await view.refresh { entry, model in
            failures += try accepted(entry, model: model, needingOwnership: &pendingOwnership)
        }
        for pending in pendingOwnership {
            if try await view.owns(pending.user, pending.space, at: pending.entry.logged.entry.sequence) { continue }
            failures.append("the server accepted \(describe(pending.entry)) by \(pending.user), \(pending.problem)")
        }
        for device in devices { failures += try await holdings(of: device) }
        return failures
    }

    // MARK: Accepted changes

    private func accepted(
        _ entry: SpacesServerView.Entry, model: ReferenceModel,
        needingOwnership: inout [(entry: SpacesServerView.Entry, user: String, space: SyncSpace, problem: String)]
    ) throws -> [String] {
        let logged = entry.logged
        let change = logged.entry.change
        // A row carried along by its parent's move is logged with no columns: the parent's change was checked.
        if change.kind == .update, change.columns.isEmpty, logged.movedFrom != nil { return [] }
        guard let maker = view.makers[logged.origin] else {
            return ["the server logged \(describe(entry)) from \(logged.origin), which no device made"]
        }
        var failures: [String] = []
        for space in [entry.previousSpace, logged.space].compactMap({ $0 }) {
            switch role(of: maker.user, in: space) {
            case .editor?, .owner?:
                continue
            case .viewer?:
                failures.append("the server accepted \(describe(entry)) by \(maker.user) (\(maker.device)), a viewer of \(space)")
            case nil:
                // Not a member before the step: unless they created the list in this push.
                needingOwnership.append((entry, maker.user, space, "who is not a member of \(space)"))
            }
        }
        let row = SimulatedRow(table: change.table.lowercased(), key: change.key)
        if row.table == "reminderslist", change.kind == .delete,
            model.rows[ReferenceModel.RowID(table: change.table, key: change.key)]?.existence?.alive == true
        {
            switch role(of: maker.user, in: logged.space) {
            case .owner?: break
            case nil: needingOwnership.append((entry, maker.user, logged.space, "who does not own the list"))
            case let role?:
                failures.append("the server accepted \(describe(entry)) by \(maker.user) (\(maker.device)), \(role.rawValue) of the list, not its owner")
            }
        }
        if change.kind == .delete, let parents = Self.parentColumns[row.table], !(deliberate[maker.device]?.contains(row) ?? false) {
            // A delete the user did not make is a cascade or a repair: a parent the row pointed at (then:
            // it may have moved since, on a device that had not heard) must have gone, or never have
            // reached the server (a refused insert).
            let values = view.columnValues[row] ?? [:]
            let justified = parents.contains { parent in
                guard let keys = values[parent.column], !keys.isEmpty else { return true }
                return keys.contains { key in
                    let parentRow = SimulatedRow(table: parent.table, key: key)
                    return view.everDeleted.contains(parentRow) || !view.isAlive(parentRow)
                }
            }
            if !justified {
                failures.append("\(maker.device) (\(maker.user)) pushed \(describe(entry)), a delete its user did not make, while the row's parents are there")
            }
        }
        return failures
    }

    private func role(of user: String, in space: SyncSpace) -> SyncRole? {
        if space.isCommon { return .editor }
        if let owner = space.privateUser { return owner == user ? .owner : nil }
        return rolesBefore[user]?[space]
    }

    private func describe(_ entry: SpacesServerView.Entry) -> String {
        let change = entry.logged.entry.change
        let columns = change.columns.map { "\($0.name)=\($0.value)" }.joined(separator: ",")
        return "\(change.kind) of \(change.table) \(change.key) {\(columns)} at \(entry.logged.entry.sequence) "
            + "(from \(entry.previousSpace.map(\.rawValue) ?? "nowhere") to \(entry.logged.space.rawValue))"
    }

    // MARK: What devices hold

    private func holdings(of device: SimulatedDevice) async throws -> [String] {
        guard let database = device.database else { return [] }
        let user = device.network.user
        let cursor = try await device.cursor()
        let (states, broken) = try await database.read { conn in
            (try conn.fetchAll("SELECT tbl, key, state FROM boutique_sync_row").map { $0.values },
             try conn.fetchAll("PRAGMA foreign_key_check").map { $0.values.map(\.description).joined(separator: " ") })
        }
        var failures = broken.map { "\(device.name) (\(user)) breaks a foreign key: \($0)" }
        let own = device.madeIdentifiers.withLock { $0 }
        var visibility: [(from: Int64, spaces: Set<SyncSpace>)]?
        for values in states {
            guard case .text(let table) = values[0], case .blob(let bytes) = values[2] else { continue }
            let row = SimulatedRow(table: table, key: values[1])
            let state = try RowRegister(record: bytes)
            // A row only this device wrote is its user's own work, whatever its key: it came from nobody.
            let stamps = [state.existence?.stamp, state.lastDelete].compactMap { $0 } + state.cells.values.map(\.stamp)
            guard stamps.contains(where: { !own.contains($0.replica) }) else { continue }
            guard let timeline = view.timelines[row] else {
                failures.append("\(device.name) (\(user)) holds \(row) with others' writes the server never logged")
                continue
            }
            if visibility == nil { visibility = try await view.visibility(of: user, from: cursor) }
            let seen = visibility ?? []
            // Points where the row's space or the user's spaces changed, from the cursor on.
            let points = [cursor] + timeline.map(\.sequence).filter { $0 > cursor } + seen.map(\.from).filter { $0 > cursor }
            let allowed = points.contains { point in
                guard let space = view.space(of: row, at: point) else { return false }
                return seen.last { $0.from <= point }?.spaces.contains(space) ?? false
            }
            if !allowed {
                let spaces = timeline.map { "\($0.sequence):\($0.space.rawValue)" }.joined(separator: " ")
                failures.append("\(device.name) (\(user)) at cursor \(cursor) holds \(row) (visible \(state.isVisible)), of spaces it may not see: \(spaces)")
            }
        }
        return failures
    }
}
