import BoutiqueSync
import BoutiqueSyncServer
import BoutiqueTestSupport

/// Membership steps of the spaces simulator, through a device's sync and its faulty network: an
/// owner shares a list, changes a member's role or unshares; a user who does not own a list tries
/// to (and must be refused, with nothing changed). A lost answer leaves the caller not knowing, as
/// an app would; the checks read members from the server.
enum SpacesSharing {
    enum Outcome: Equatable {
        case shared, roleChanged, unshared, refused, lost, none
    }

    /// An owner's change of members of one of their lists.
    static func byOwner(
        on device: SimulatedDevice, view: SpacesServerView, random: inout SeededRandom, failures: inout [String]
    ) async throws -> Outcome {
        guard let sync = device.sync else { return .none }
        let user = device.network.user
        let owned = try await view.roles()[user, default: [:]].filter { $0.value == .owner }.keys
            .filter { space in space.root.map { view.isAlive(SimulatedRow(table: "reminderslist", key: $0.key)) } ?? false }
            .sorted()
        let others = view.users.filter { $0 != user }
        guard !owned.isEmpty, !others.isEmpty, let root = random.pick(owned).root, case .text(let key) = root.key else { return .none }
        let target = random.pick(others)
        let before = try await view.members(ofList: key)
        let current = before.first { $0.user == target }?.role
        let outcome: Outcome
        let call: () async throws -> [SyncMember]
        if current != nil, random.chance(50) {
            outcome = .unshared
            call = { try await sync.unshare("remindersList", key: root.key, with: target) }
        } else {
            let role: SyncRole = current.map { $0 == .viewer ? .editor : .viewer } ?? (random.chance(50) ? .viewer : .editor)
            outcome = current == nil ? .shared : .roleChanged
            call = { try await sync.share("remindersList", key: root.key, with: target, role: role) }
        }
        if SimulationTrace.isOn { print("SHARE \(device.name) (\(user)) \(outcome) \(key) with \(target)") }
        let result = await attempt(call)
        switch result {
        case .success(let members):
            let after = try await view.members(ofList: key)
            if Set(members) != after {
                failures.append("\(user)'s \(outcome) of \(key) with \(target) answered \(members), the server holds \(after.sorted { $0.user < $1.user })")
            }
            return outcome
        case .failure(let error as SyncRefusal):
            failures.append("\(user), owner of \(key), was refused \(outcome) with \(target): \(error)")
            return .refused
        case .failure(let error):
            if case BoutiqueError.syncUnavailable = error { return .lost }
            failures.append("\(user)'s \(outcome) of \(key) with \(target) failed: \(error)")
            return .lost
        }
    }

    /// A change of members by a user who does not own the list (an editor, a viewer, a stranger), or
    /// an owner asking for what no one may do (a second owner): refused, and nothing changes.
    static func byNonOwner(
        on device: SimulatedDevice, view: SpacesServerView, listKeys: [String], random: inout SeededRandom, failures: inout [String]
    ) async throws -> Outcome {
        guard let sync = device.sync else { return .none }
        let user = device.network.user
        let roles = try await view.roles()[user, default: [:]]
        let key = random.pick(listKeys)
        let space = SyncSpace.shared(table: "reminderslist", key: .text(key))
        let isOwner = roles[space] == .owner
        let target = random.pick(view.users)
        let before = try await view.members(ofList: key)
        let what: String
        let call: () async throws -> [SyncMember]
        if isOwner {
            what = "making \(target) an owner"
            call = { try await sync.share("remindersList", key: .text(key), with: target, role: .owner) }
        } else if random.chance(50) {
            let role: SyncRole = random.chance(50) ? .viewer : .editor
            what = "sharing with \(target) as \(role)"
            call = { try await sync.share("remindersList", key: .text(key), with: target, role: role) }
        } else {
            what = "unsharing \(target)"
            call = { try await sync.unshare("remindersList", key: .text(key), with: target) }
        }
        if SimulationTrace.isOn { print("ATTEMPT \(device.name) (\(user), \(roles[space].map(\.rawValue) ?? "no member")) \(what) in \(key)") }
        let result = await attempt(call)
        let after = try await view.members(ofList: key)
        if after != before {
            failures.append("\(user) (\(roles[space].map(\.rawValue) ?? "not a member")) \(what) in \(key) changed its members from \(before) to \(after)")
        }
        switch result {
        case .success(let members):
            failures.append("\(user) (\(roles[space].map(\.rawValue) ?? "not a member")) \(what) in \(key) was accepted: \(members)")
            return .none
        case .failure(is SyncRefusal):
            return .refused
        case .failure(let error):
            if case BoutiqueError.syncUnavailable = error { return .lost }
            failures.append("\(user) \(what) in \(key) failed: \(error)")
            return .lost
        }
    }

    private static func attempt(_ call: () async throws -> [SyncMember]) async -> Result<[SyncMember], any Error> {
        do {
            return .success(try await call())
        } catch {
            return .failure(error)
        }
    }
}
