/// The connections that have not sent a whole request yet — just opened, sending a head or a body, or
/// kept alive between requests — and who may open another.
///
/// Such a connection costs the server a descriptor and a slot and gives it nothing: a client sending a
/// byte now and then, or none, can hold it until the request deadline (or the idle timeout). So at
/// most ``limit`` of them are open at once, and ``perAddress`` from one address; a connection whose
/// request is in (and is being handled: a long poll, which only an authenticated request becomes,
/// as every other is answered at once) or answered counts in neither, so a thousand devices behind
/// one address can all wait on long polls.
///
/// A connection that would pass a budget takes the place of the oldest unfinished one — of its own
/// address when that address is at its share, otherwise of the address that holds the most — when that
/// one has been unfinished for at least ``patience`` (a client sending its request in one go has long
/// sent it by then); otherwise it is refused. Slow clients from many addresses therefore keep some
/// connections, not every one, and a client that sends its request at once is still served.
struct UnfinishedRequests {
    /// At most this many unfinished connections.
    let limit: Int
    /// At most this many unfinished connections from one address.
    let perAddress: Int
    /// How long a connection has been unfinished before a new one may take its place.
    let patience: Duration

    private var members: [UInt: Member] = [:]
    private var byAddress: [String: Int] = [:]

    private struct Member {
        let client: String
        let since: ContinuousClock.Instant
    }

    /// What becomes of a new connection.
    enum Admission: Equatable {
        /// It is let in.
        case admit
        /// It is let in in place of the connection with this key, which is closed.
        case displace(UInt)
        /// It is closed: every unfinished connection it could take the place of is too young.
        case refuse
    }

    init(limit: Int, perAddress: Int, patience: Duration) {
        self.limit = max(1, limit)
        self.perAddress = max(1, perAddress)
        self.patience = patience
    }

    /// How many connections are unfinished.
    var count: Int { members.count }

    /// How many connections from `client` are unfinished.
    func count(from client: String) -> Int { byAddress[client] ?? 0 }

    /// Whether the connection with `key` is counted.
    func contains(_ key: UInt) -> Bool { members[key] != nil }

    /// What becomes of a new connection from `client` now.
    func admission(of client: String, now: ContinuousClock.Instant) -> Admission {
        let fromClient = count(from: client)
        if fromClient >= perAddress {
            return oldest(from: client, before: now - patience).map(Admission.displace) ?? .refuse
        }
        guard members.count >= limit else { return .admit }
        // The address holding the most gives way; one of its connections young enough to be a
        // client still sending its request at full speed is not taken.
        let busiest = byAddress.max { $0.value < $1.value }?.key
        if let busiest, let key = oldest(from: busiest, before: now - patience) { return .displace(key) }
        return oldest(from: nil, before: now - patience).map(Admission.displace) ?? .refuse
    }

    /// The oldest connection of `client` (of any client when `nil`) unfinished since before `cutoff`.
    private func oldest(from client: String?, before cutoff: ContinuousClock.Instant) -> UInt? {
        var found: (key: UInt, since: ContinuousClock.Instant)?
        for (key, member) in members where member.since <= cutoff && (client == nil || member.client == client) {
            if found.map({ member.since < $0.since }) ?? true { found = (key, member.since) }
        }
        return found?.key
    }

    /// Counts the connection with `key` from `client` as unfinished since `since` (a connection
    /// already counted keeps its time).
    mutating func add(_ key: UInt, client: String, since: ContinuousClock.Instant) {
        guard members[key] == nil else { return }
        members[key] = Member(client: client, since: since)
        byAddress[client, default: 0] += 1
    }

    /// No longer counts the connection with `key` (its request is in, or it closed).
    mutating func remove(_ key: UInt) {
        guard let member = members.removeValue(forKey: key) else { return }
        let left = (byAddress[member.client] ?? 1) - 1
        byAddress[member.client] = left > 0 ? left : nil
    }
}
