import BoutiqueDB
import BoutiqueSQLite
import BoutiqueSync
import BoutiqueSyncServer
import Foundation

#if BOUTIQUE_SYNC_HTTP
import BoutiqueSyncHTTP
#endif

/// What spaces (sharing between users, DESIGN.md section 13) cost, each figure a ratio measured in the
/// same run, on a server with the rules `{"roots":["remindersList"],"follows":{"reminder":"listID"}}`:
///
/// - tenant size: a user in 10 spaces of a tenant holding 10,000 spaces of 10 rows (a list and 9
///   reminders) against the same user in a tenant holding only those 10 spaces: a bootstrap (the
///   server's snapshot pages alone, and a device in process) and a one-change pull (the same two ways);
/// - moving in: a member's device moving in a 10,000-row space after it is shared, against a device
///   applying the same 10,000 rows as a pull;
/// - rules on pushes: 20 devices × 1,000 one-change transactions pushed at once to a server with the
///   rules, against the same pushes to a server without them (the server's work alone, replaying the
///   devices' requests, and devices in process end to end);
/// - live sharing: two started devices over HTTP on 127.0.0.1; share → the member's live query shows
///   the list, unshare → it shows nothing (p50, p99).
///
///     swift run -c release boutique-benchmarks --spaces
///
/// Every figure is taken on the SQLite store, and also on the PostgreSQL store when
/// `BOUTIQUE_BENCH_POSTGRES_URL` names a server (a database is created there for each store, and
/// dropped after); a store that does not keep spaces says so and is skipped. Variants alternate round
/// by round after a warm-up round; medians are compared.
enum SpacesWorkloads {
    static let rulesJSON = #"{"roots":["remindersList"],"follows":{"reminder":"listID"}}"#

    static func rules() throws -> SyncRules {
        try JSONDecoder().decode(SyncRules.self, from: Data(rulesJSON.utf8))
    }

    static let schema = BoutiqueMigrationPlan {
        BoutiqueMigration("v1_reminders") { conn in
            try conn.execute("""
                CREATE TABLE remindersList(id TEXT PRIMARY KEY NOT NULL, title TEXT NOT NULL DEFAULT '');
                CREATE TABLE reminder(id TEXT PRIMARY KEY NOT NULL,
                    listID TEXT NOT NULL REFERENCES remindersList(id) ON DELETE CASCADE, title TEXT NOT NULL DEFAULT '');
                """)
        }
    }

    static let tables = ["remindersList", "reminder"]

    /// The tables as devices describe them to the server: what tells it a reminder's list is its parent.
    static let shapes = [
        SyncTableShape(table: "remindersList", columns: ["id", "title"]),
        SyncTableShape(table: "reminder", columns: ["id", "listID", "title"], references: ["listID": "remindersList"]),
    ]

    /// The SQLite store, and the PostgreSQL one when `BOUTIQUE_BENCH_POSTGRES_URL` names a server.
    static var kinds: [StoreKind] {
        var kinds = [StoreKind.sqlite]
        if let url = ProcessInfo.processInfo.environment["BOUTIQUE_BENCH_POSTGRES_URL"], !url.isEmpty {
            kinds.append(.postgres(url))
        }
        return kinds
    }

    /// Runs `body` on each store of ``kinds`` that can be measured, under a heading.
    static func eachStore(_ body: (StoreKind) async throws -> Void) async throws {
        for kind in kinds {
            print("\n=== spaces, \(kind.name) store ===")
            if let reason = try await unsupported(kind) {
                print("  not measured: \(reason)")
                continue
            }
            try await body(kind)
        }
    }

    static func run(rounds: Int) async throws {
        try await eachStore { kind in
            try await tenantSize(kind, rounds: rounds)
            try await movingIn(kind, rounds: rounds)
            try await rulesOnPushes(kind, rounds: rounds)
            try await liveSharing(kind, rounds: 30)
        }
    }

    /// One figure on each store of ``kinds``; `false` for a name that is none.
    static func runOne(_ name: String, rounds: Int) async throws -> Bool {
        guard ["tenant", "movein", "pushes", "live"].contains(name) else { return false }
        try await eachStore { kind in
            switch name {
            case "tenant": try await tenantSize(kind, rounds: rounds)
            case "movein": try await movingIn(kind, rounds: rounds)
            case "pushes": try await rulesOnPushes(kind, rounds: rounds)
            default: try await liveSharing(kind, rounds: 30)
            }
        }
        return true
    }

    // MARK: Stores

    enum StoreKind {
        case sqlite
        /// ``SQLiteTenantFilesStore``: a SQLite file per tenant in a directory.
        case sqliteTenantFiles
        case postgres(String)

        var name: String {
            switch self {
            case .sqlite: "SQLite"
            case .sqliteTenantFiles: "SQLite file-per-tenant"
            case .postgres: "PostgreSQL"
            }
        }
    }

    /// A store of its own: a new SQLite file or directory, or a new PostgreSQL database.
    struct OpenStore {
        let store: any SyncStore
        let close: @Sendable () async -> Void
    }

    static func open(_ kind: StoreKind) async throws -> OpenStore {
        switch kind {
        case .sqlite:
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("boutique-spaces-bench-\(UUID().uuidString).db")
            let store = try await SQLiteSyncStore.open(url: url)
            return OpenStore(store: store) {
                await store.close()
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
            }
        case .sqliteTenantFiles:
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("boutique-spaces-bench-\(UUID().uuidString)")
            let store = try await SQLiteTenantFilesStore.open(directory: url)
            return OpenStore(store: store) {
                await store.close()
                try? FileManager.default.removeItem(at: url)
            }
        case .postgres(let server):
            // A name made here, of hex digits only: CREATE DATABASE takes no parameters.
            let name = "boutique_spaces_bench_" + UUID().uuidString.lowercased().filter(\.isHexDigit)
            try psql(server, "CREATE DATABASE \(name)")
            guard var components = URLComponents(string: server) else {
                throw BoutiqueError.invalidArgument("BOUTIQUE_BENCH_POSTGRES_URL is not a URL: \(server)")
            }
            components.path = "/" + name
            let store = try await PostgreSQLSyncStore.open(url: components.string ?? server)
            return OpenStore(store: store) {
                await store.close()
                try? psql(server, "DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
            }
        }
    }

    /// Why a store cannot serve a server with rules, `nil` when it can: a store that does not keep
    /// spaces says so on the first spaces query.
    static func unsupported(_ kind: StoreKind) async throws -> String? {
        let opened = try await open(kind)
        var reason: String?
        do {
            _ = try await opened.store.transaction(tenant: "probe") { try $0.rowCount(in: [.common]) }
        } catch {
            reason = "\(error)"
        }
        await opened.close()
        return reason
    }

    /// Runs one statement with `psql`, outside any transaction.
    static func psql(_ url: String, _ sql: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["psql", "-q", "-v", "ON_ERROR_STOP=1", url, "-c", sql]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw BoutiqueError.syncUnavailable(reason: "psql failed: \(sql)") }
    }

    // MARK: Writing tenants through the server

    static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    static func stamp(_ writer: String) -> SyncStamp {
        SyncStamp(time: HybridTimestamp(milliseconds: UInt64(Date().timeIntervalSince1970 * 1000)), replica: writer)
    }

    static func listID(_ index: Int) -> String { "L" + String(format: "%06d", index) }

    static func listInsert(_ id: String, _ stamp: SyncStamp) -> SyncChange {
        SyncChange(
            table: "reminderslist", key: .text(id), kind: .insert,
            columns: [SyncColumnValue(name: "id", value: .text(id)), SyncColumnValue(name: "title", value: .text("list \(id)"))],
            stamp: stamp)
    }

    static func reminderInsert(_ id: String, list: String, _ stamp: SyncStamp) -> SyncChange {
        SyncChange(
            table: "reminder", key: .text(id), kind: .insert,
            columns: [SyncColumnValue(name: "id", value: .text(id)), SyncColumnValue(name: "listid", value: .text(list)),
                      SyncColumnValue(name: "title", value: .text("reminder \(id)"))],
            stamp: stamp)
    }

    /// A push of `transactions` from a replica that never pushed before; each transaction takes the
    /// stamp its changes carry.
    static func firstPush(_ replica: String, _ transactions: [[SyncChange]]) -> PushRequest {
        PushRequest(
            replica: replica, baseTransactionID: 0, baseDigest: nil, schemaVersion: 0,
            transactions: transactions.enumerated().map {
                SyncTransaction(id: Int64($0.offset + 1), stamp: $0.element.first?.stamp ?? stamp(replica), changes: $0.element)
            },
            tables: shapes)
    }

    static func accept(_ response: PushResponse, _ what: String) throws {
        guard response.outcome == .accepted, response.refusals == nil else {
            throw BoutiqueError.syncRefused(reason: "\(what): \(response.outcome) \(response.reason ?? "") \(response.refusals ?? [])")
        }
    }

    static func share(_ server: SyncServer, list: String, owner: String, with user: String, tenant: String) async throws {
        let response = try await server.membership(
            MembershipRequest(table: "reminderslist", key: .text(list), user: user, role: .editor), action: .share, tenant: tenant, user: owner)
        if let reason = response.reason { throw BoutiqueError.syncRefused(reason: reason) }
    }

    static func unshare(_ server: SyncServer, list: String, owner: String, with user: String, tenant: String) async throws {
        let response = try await server.membership(
            MembershipRequest(table: "reminderslist", key: .text(list), user: user), action: .unshare, tenant: tenant, user: owner)
        if let reason = response.reason { throw BoutiqueError.syncRefused(reason: reason) }
    }

    /// A device of `user` on an in-memory database.
    static func device(_ server: SyncServer, tenant: String, user: String) async throws -> (DatabaseActor, BoutiqueSync) {
        let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: schema)
        let sync = try await BoutiqueSync(database: database, tables: tables, server: .inProcess(server, tenant: tenant, user: user))
        return (database, sync)
    }

    static func count(_ database: DatabaseActor, _ table: String) async throws -> Int {
        let value = try await database.read { conn in try conn.fetchValue("SELECT count(*) FROM \(table)") }
        guard case .integer(let count)? = value else { return -1 }
        return Int(count)
    }

    // MARK: Samples

    /// Samples of named lines, printed in groups against each group's first line.
    struct Samples {
        private var samples: [String: [Double]] = [:]

        mutating func add(_ name: String, _ seconds: Double, timed: Bool) {
            if timed { samples[name, default: []].append(seconds) }
        }

        func print(_ title: String, groups: [[String]]) {
            Swift.print("\n\(title) — median of \(samples.values.first?.count ?? 0) rounds (min … max), ratio to each group's first line")
            for group in groups {
                guard let first = group.first, let base = samples[first] else { continue }
                let baseline = BenchmarkStatistics.median(base)
                for name in group {
                    let values = samples[name] ?? []
                    BenchmarkStatistics.printLine(
                        name, median: BenchmarkStatistics.median(values), min: values.min() ?? .nan, max: values.max() ?? .nan,
                        baseline: baseline)
                }
            }
        }
    }

    static func elapsed(_ body: () async throws -> Void) async rethrows -> Double {
        let start = now()
        try await body()
        return now() - start
    }

    // MARK: 1. Tenant size

    static let spacesInBigTenant = 10_000
    static let owners = 100
    /// The spaces the measured user is in: spread over the tenant, all of one owner.
    static let benchSpaces = Array(stride(from: 7, to: spacesInBigTenant, by: spacesInBigTenant / 10))
    static let apiRepeats = 20

    /// A tenant of `spaces` lists of 10 rows, each created by its owner's push; the measured user
    /// (`bench`) is then given the `benchSpaces`.
    static func populate(_ server: SyncServer, tenant: String, spaces: [Int]) async throws {
        let byOwner = Dictionary(grouping: spaces) { $0 % owners }
        for owner in byOwner.keys.sorted() {
            let user = "owner-\(owner)"
            let stamp = stamp(user)
            let transactions = byOwner[owner, default: []].map { index -> [SyncChange] in
                let list = listID(index)
                return [listInsert(list, stamp)] + (1...9).map { reminderInsert("\(list)-r\($0)", list: list, stamp) }
            }
            try accept(try await server.push(firstPush(user + "-device", transactions), tenant: tenant, user: user), "populating \(tenant)")
        }
        for index in benchSpaces {
            try await share(server, list: listID(index), owner: "owner-\(index % owners)", with: "bench", tenant: tenant)
        }
    }

    /// Pages through the user's snapshot to the end, as a bootstrapping device does; returns the rows.
    static func snapshotAll(_ server: SyncServer, tenant: String, user: String, replica: String) async throws -> Int {
        var after: SnapshotPosition?
        var rows = 0
        repeat {
            let page = try await server.snapshot(SnapshotRequest(replica: replica, after: after, limit: 1_000), tenant: tenant, user: user)
            rows += page.rows.count
            after = page.next
        } while after != nil
        return rows
    }

    static func tenantSize(_ kind: StoreKind, rounds: Int) async throws {
        let rules = try rules()
        let small = try await open(kind)
        let big = try await open(kind)
        let servers = [("10 spaces", SyncServer(store: small.store, rules: rules)), ("10,000 spaces", SyncServer(store: big.store, rules: rules))]
        let tenant = "acme"
        var start = now()
        try await populate(servers[0].1, tenant: tenant, spaces: benchSpaces)
        try await populate(servers[1].1, tenant: tenant, spaces: Array(0..<spacesInBigTenant))
        print(String(format: "\n(populating: %.1f s for both tenants, %d rows in the big one)", now() - start, spacesInBigTenant * 10))
        start = now()

        // One device per tenant stays bootstrapped for the one-change pulls.
        var pullers: [(DatabaseActor, BoutiqueSync)] = []
        for (_, server) in servers {
            let puller = try await device(server, tenant: tenant, user: "bench")
            _ = try await puller.1.synchronize()
            guard try await count(puller.0, "reminder") == 90 else { throw BoutiqueError.invalidArgument("bench device holds the wrong rows") }
            pullers.append(puller)
        }
        var samples = Samples()
        var edits = 0
        for round in 0...rounds {
            for (index, (name, server)) in servers.enumerated() {
                let timed = round > 0
                // The server's work alone: the whole snapshot, `apiRepeats` times.
                var rows = 0
                let snapshot = try await elapsed {
                    for repeatIndex in 0..<apiRepeats {
                        rows = try await snapshotAll(server, tenant: tenant, user: "bench", replica: "api-\(round)-\(repeatIndex)")
                    }
                }
                guard rows == 100 else { throw BoutiqueError.invalidArgument("the snapshot held \(rows) rows, not 100") }
                samples.add("snapshot ×\(apiRepeats): \(name)", snapshot, timed: timed)

                // A fresh device bootstrapping (snapshot pages merged, then the pull from there).
                let (database, sync) = try await device(server, tenant: tenant, user: "bench")
                var applied = 0
                let bootstrap = try await elapsed { applied = try await sync.synchronize().applied }
                guard applied == 100 else { throw BoutiqueError.invalidArgument("bootstrap applied \(applied) rows, not 100") }
                samples.add("device bootstrap: \(name)", bootstrap, timed: timed)
                await database.close()

                // One change in one of the user's spaces, pulled: by the server alone, then by a device.
                var pulled = 0
                var serverPull = 0.0
                for _ in 0..<apiRepeats {
                    edits += 1
                    let cursor = try await server.store.transaction(tenant: tenant) { try $0.latestSequence() }
                    try await pushEdit(server, tenant: tenant, edit: edits)
                    serverPull += try await elapsed {
                        let page = try await server.pull(PullRequest(replica: "api-puller", cursor: cursor, limit: 1_000), tenant: tenant, user: "bench")
                        pulled = page.changes.count
                    }
                }
                guard pulled == 1 else { throw BoutiqueError.invalidArgument("a pull brought \(pulled) changes, not 1") }
                samples.add("pull of 1 ×\(apiRepeats): \(name)", serverPull, timed: timed)

                _ = try await pullers[index].1.synchronize()   // the edits above, not timed
                edits += 1
                try await pushEdit(server, tenant: tenant, edit: edits)
                let devicePull = try await elapsed { applied = try await pullers[index].1.synchronize().applied }
                guard applied == 1 else { throw BoutiqueError.invalidArgument("the device pulled \(applied) changes, not 1") }
                samples.add("device pull of 1: \(name)", devicePull, timed: timed)
            }
        }
        samples.print("a user in 10 spaces: tenant of 10,000 spaces vs of those 10 (target ≤ 1.5×)", groups: [
            ["snapshot ×\(apiRepeats): 10 spaces", "snapshot ×\(apiRepeats): 10,000 spaces"],
            ["device bootstrap: 10 spaces", "device bootstrap: 10,000 spaces"],
            ["pull of 1 ×\(apiRepeats): 10 spaces", "pull of 1 ×\(apiRepeats): 10,000 spaces"],
            ["device pull of 1: 10 spaces", "device pull of 1: 10,000 spaces"],
        ])
        print(String(format: "  (measuring: %.1f s)", now() - start))
        for (database, _) in pullers { await database.close() }
        await small.close()
        await big.close()
    }

    /// An owner's edit of a reminder in one of the measured user's spaces, from a replica of its own.
    static func pushEdit(_ server: SyncServer, tenant: String, edit: Int) async throws {
        let list = listID(benchSpaces[edit % benchSpaces.count])
        let owner = "owner-\(benchSpaces[edit % benchSpaces.count] % owners)"
        // Each edit's stamp is later than the one before, even within a millisecond: an edit that lost
        // to the previous one would not be logged, and there would be nothing to pull.
        let time = HybridTimestamp(milliseconds: UInt64(Date().timeIntervalSince1970 * 1000), counter: UInt16(truncatingIfNeeded: edit))
        let change = SyncChange(
            table: "reminder", key: .text("\(list)-r1"), kind: .update,
            columns: [SyncColumnValue(name: "title", value: .text("edit \(edit)"))], stamp: SyncStamp(time: time, replica: owner))
        try accept(try await server.push(firstPush("\(owner)-edit-\(edit)", [[change]]), tenant: tenant, user: owner), "an edit")
    }

    // MARK: 2. Moving in

    static let movedRows = 10_000

    /// A list and 9,999 reminders, in 10 transactions of 1,000 rows (a pull page each).
    static func bigList(owner: String) -> PushRequest {
        let stamp = stamp(owner)
        let list = "BIG"
        var changes = [listInsert(list, stamp)] + (1..<movedRows).map { reminderInsert("BIG-r\($0)", list: list, stamp) }
        var transactions: [[SyncChange]] = []
        while !changes.isEmpty {
            transactions.append(Array(changes.prefix(1_000)))
            changes.removeFirst(min(1_000, changes.count))
        }
        return firstPush(owner + "-device", transactions)
    }

    /// A device applying the rows a server answers it with; the rows must be `movedRows`.
    static func applying(_ sync: BoutiqueSync, into database: DatabaseActor, what: String) async throws -> Double {
        var applied = 0
        let seconds = try await elapsed { applied = try await sync.synchronize().applied }
        guard applied == movedRows, try await count(database, "reminder") == movedRows - 1 else {
            throw BoutiqueError.invalidArgument("\(what) applied \(applied) rows, not \(movedRows)")
        }
        return seconds
    }

    static func movingIn(_ kind: StoreKind, rounds: Int) async throws {
        let rules = try rules()
        let request = bigList(owner: "ana")
        var samples = Samples()
        var ownersOtherDevice: [Int] = []
        for round in 0...rounds {
            let opened = try await open(kind)
            let plain = SyncServer(store: opened.store)
            let server = SyncServer(store: opened.store, rules: rules)
            let timed = round > 0

            // The rows as a pull: a device that bootstrapped before they were pushed, on a server
            // without rules (with rules, no device of another user can see a space before it is
            // shared, and the owner's own devices move in the space they created: see below).
            let pullTenant = "pull-\(round)"
            let (pullDatabase, pullSync) = try await device(plain, tenant: pullTenant, user: "ana")
            _ = try await pullSync.synchronize()
            try accept(try await plain.push(request, tenant: pullTenant, user: "ana"), "the big list")
            samples.add("\(movedRows) rows applied from a pull", try await applying(pullSync, into: pullDatabase, what: "the pull"), timed: timed)
            await pullDatabase.close()

            // The same rows moved in: a member's device, bootstrapped before the list was shared.
            let shareTenant = "share-\(round)"
            try accept(try await server.push(request, tenant: shareTenant, user: "ana"), "the big list")
            let (memberDatabase, memberSync) = try await device(server, tenant: shareTenant, user: "bob")
            _ = try await memberSync.synchronize()
            try await share(server, list: "BIG", owner: "ana", with: "bob", tenant: shareTenant)
            samples.add("  moved in on a share", try await applying(memberSync, into: memberDatabase, what: "the move-in"), timed: timed)
            await memberDatabase.close()

            // The owner's other device, bootstrapped before the list was pushed, with rules: it moves in
            // the space its user joined by creating it, then pulls the changes after that point.
            let ownerTenant = "owner-\(round)"
            let (ownerDatabase, ownerSync) = try await device(server, tenant: ownerTenant, user: "ana")
            _ = try await ownerSync.synchronize()
            try accept(try await server.push(request, tenant: ownerTenant, user: "ana"), "the big list")
            var applied = 0
            let ownerPull = try await elapsed { applied = try await ownerSync.synchronize().applied }
            guard try await count(ownerDatabase, "reminder") == movedRows - 1 else {
                throw BoutiqueError.invalidArgument("the owner's other device holds the wrong rows")
            }
            samples.add("  owner's other device, rules", ownerPull, timed: timed)
            ownersOtherDevice.append(applied)
            await ownerDatabase.close()

            // The server's part of the first two: the pages the devices ask for.
            let pages = try await elapsed {
                var cursor: Int64 = 0
                var more = true
                while more {
                    let page = try await plain.pull(PullRequest(replica: "api", cursor: cursor, limit: 1_000), tenant: pullTenant, user: "ana")
                    cursor = page.nextCursor
                    more = page.hasMore
                }
            }
            samples.add("server: the pull's pages", pages, timed: timed)
            let snapshot = try await elapsed {
                var after: SnapshotPosition?
                repeat {
                    let page = try await server.snapshot(
                        SnapshotRequest(replica: "api", after: after, limit: 1_000, space: .shared(table: "reminderslist", key: .text("BIG"))),
                        tenant: shareTenant, user: "bob")
                    after = page.next
                } while after != nil
            }
            samples.add("server: the space's snapshot", snapshot, timed: timed)
            await opened.close()
        }
        samples.print("moving in a \(movedRows)-row space vs applying the same rows as a pull (target ≤ 2×)", groups: [
            ["\(movedRows) rows applied from a pull", "  moved in on a share", "  owner's other device, rules"],
            ["server: the pull's pages", "server: the space's snapshot"],
        ])
        print("  (the owner's other device applied \(ownersOtherDevice.last ?? 0) rows for the \(movedRows) its user pushed)")
    }

    // MARK: 3. Rules on pushes

    static let pushers = 20
    static let pushedTransactions = 1_000

    /// Records what devices push and acknowledges it at once, so the same requests can be replayed.
    final class RecordingEndpoint: SyncEndpoint {
        let requests = Lock([String: [PushRequest]]())

        func push(_ request: PushRequest, tenant: String) async throws -> PushResponse {
            try await push(request, tenant: tenant, user: nil)
        }

        func push(_ request: PushRequest, tenant: String, user: String?) async throws -> PushResponse {
            requests.withLock { $0[user ?? "", default: []].append(request) }
            let last = request.transactions.last
            return PushResponse(
                outcome: .accepted, appliedThrough: last?.id ?? request.baseTransactionID, digest: last?.digest ?? request.baseDigest,
                serverTime: HybridTimestamp(milliseconds: UInt64(Date().timeIntervalSince1970 * 1000)))
        }

        func pull(_ request: PullRequest, tenant: String) async throws -> PullResponse {
            PullResponse(outcome: .changes, changes: [], nextCursor: request.cursor, hasMore: false, serverTime: .zero)
        }

        func snapshot(_ request: SnapshotRequest, tenant: String) async throws -> SnapshotResponse {
            SnapshotResponse(rows: [], next: nil, cursor: 0, serverTime: .zero)
        }
    }

    /// `pushers` devices, each of its own user, each having committed a list then 999 reminders in it,
    /// one row a transaction, not yet pushed.
    static func writingDevices(_ endpoint: any SyncEndpoint, tenant: String) async throws -> [(String, DatabaseActor, BoutiqueSync)] {
        var devices: [(String, DatabaseActor, BoutiqueSync)] = []
        for index in 0..<pushers {
            let user = "u\(index)"
            let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: schema)
            let sync = try await BoutiqueSync(database: database, tables: tables, server: .inProcess(endpoint, tenant: tenant, user: user))
            try await sync.checkSchema()
            let list = "L-\(user)"
            try await database.write { conn in try conn.execute("INSERT INTO remindersList(id, title) VALUES (?, 'list')", [.text(list)]) }
            for row in 1..<pushedTransactions {
                try await database.write { conn in
                    try conn.execute("INSERT INTO reminder(id, listID, title) VALUES (?, ?, ?)",
                                     [.text("\(list)-r\(row)"), .text(list), .text("reminder \(row)")])
                }
            }
            devices.append((user, database, sync))
        }
        return devices
    }

    static func rulesOnPushes(_ kind: StoreKind, rounds: Int) async throws {
        let rules = try rules()
        // The devices' requests, recorded once and replayed to fresh servers: the server's work alone.
        let recorder = RecordingEndpoint()
        let recording = try await writingDevices(recorder, tenant: "recorded")
        for (_, _, sync) in recording { _ = try await sync.push() }
        for (_, database, _) in recording { await database.close() }
        let requests = recorder.requests.withLock { $0 }
        let recorded = requests.values.joined().reduce(0) { $0 + $1.transactions.count }
        guard recorded == pushers * pushedTransactions else {
            throw BoutiqueError.invalidArgument("recorded \(recorded) transactions, not \(pushers * pushedTransactions)")
        }
        var samples = Samples()
        for round in 0...rounds {
            for withRules in [false, true] {
                let opened = try await open(kind)
                let server = SyncServer(store: opened.store, rules: withRules ? rules : nil)
                let seconds = try await elapsed {
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        for (user, pushes) in requests {
                            group.addTask {
                                for request in pushes { try accept(try await server.push(request, tenant: "t", user: user), "a replayed push") }
                            }
                        }
                        try await group.waitForAll()
                    }
                }
                let rows = try await opened.store.transaction(tenant: "t") { try $0.latestSequence() }
                guard rows == Int64(pushers * pushedTransactions) else { throw BoutiqueError.invalidArgument("the server logged \(rows) changes") }
                samples.add(withRules ? "  with rules" : "without rules", seconds, timed: round > 0)
                await opened.close()
            }
        }
        samples.print(
            "\(pushers) × \(pushedTransactions) one-change transactions pushed at once, the server's work alone (target ≤ 1.3×)",
            groups: [["without rules", "  with rules"]])

        // End to end: devices in process pushing to the server, their own work included.
        let endToEndRounds = min(rounds, 3)
        var ends = Samples()
        for round in 0...endToEndRounds {
            for withRules in [false, true] {
                let opened = try await open(kind)
                let server = SyncServer(store: opened.store, rules: withRules ? rules : nil)
                let devices = try await writingDevices(server, tenant: "t")
                var accepted = 0
                let seconds = try await elapsed {
                    accepted = try await withThrowingTaskGroup(of: Int.self) { group in
                        for (_, _, sync) in devices { group.addTask { try await sync.push() } }
                        return try await group.reduce(0, +)
                    }
                }
                guard accepted == pushers * pushedTransactions else { throw BoutiqueError.invalidArgument("\(accepted) changes accepted") }
                ends.add(withRules ? "  with rules" : "without rules", seconds, timed: round > 0)
                for (_, database, _) in devices { await database.close() }
                await opened.close()
            }
        }
        ends.print("the same, devices in process pushing (their own work included)", groups: [["without rules", "  with rules"]])
    }

    // MARK: 4. Live sharing over HTTP

    static func liveSharing(_ kind: StoreKind, rounds: Int) async throws {
        #if BOUTIQUE_SYNC_HTTP
        let opened = try await open(kind)
        let server = SyncServer(store: opened.store, rules: try rules())
        let signer = try SyncTokenSigner(secret: SyncNetworkWorkloads.secret)
        let http = try SyncHTTPServer(server: server, signer: signer, port: 0)
        let tenant = "live"
        func device(_ user: String) async throws -> (DatabaseActor, BoutiqueSync) {
            let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: schema)
            let token = try signer.token(tenant: tenant, user: user, expiresAt: Date().addingTimeInterval(3_600))
            let sync = try await BoutiqueSync(database: database, tables: tables, server: .http(http.url, token: token))
            return (database, sync)
        }
        let (ana, anaSync) = try await device("ana")
        let (bob, bobSync) = try await device("bob")
        try await ana.write { conn in
            try conn.execute("INSERT INTO remindersList(id, title) VALUES ('L', 'Groceries')")
            for row in 1...9 { try conn.execute("INSERT INTO reminder(id, listID, title) VALUES (?, 'L', 'item')", [.text("r\(row)")]) }
        }
        _ = try await anaSync.synchronize()
        _ = try await bobSync.synchronize()
        anaSync.start()
        bobSync.start()
        let seen = ListCount()
        let watcher = Task {
            for try await lists in bob.observe(SpacesBenchList.all) { seen.set(lists.count, at: now()) }
        }
        try await Task.sleep(for: .milliseconds(300))
        var shared: [Double] = []
        var unshared: [Double] = []
        for _ in 0..<rounds {
            var start = now()
            try await anaSync.share("remindersList", key: .text("L"), with: "bob", role: .viewer)
            guard let arrived = await seen.wait(for: 1, after: start, timeout: 10) else {
                print("  ! the shared list did not reach bob's live query within 10 s")
                break
            }
            shared.append(arrived - start)
            try await Task.sleep(for: .milliseconds(20))
            start = now()
            try await anaSync.unshare("remindersList", key: .text("L"), with: "bob")
            guard let left = await seen.wait(for: 0, after: start, timeout: 10) else {
                print("  ! the unshared list did not leave bob's live query within 10 s")
                break
            }
            unshared.append(left - start)
            try await Task.sleep(for: .milliseconds(20))
        }
        print("\nlive sharing over HTTP on 127.0.0.1, both devices started (target p99 ≤ 1 s)")
        BenchmarkStatistics.printLatencies("share → member's live query", shared)
        BenchmarkStatistics.printLatencies("unshare → it shows nothing", unshared)
        watcher.cancel()
        await anaSync.stop()
        await bobSync.stop()
        await ana.close()
        await bob.close()
        await http.shutdown(gracePeriod: .seconds(1))
        await opened.close()
        #else
        _ = (kind, rounds)
        print("\nlive sharing over HTTP: not measured: \(SyncNetworkWorkloads.missingHTTP)")
        #endif
    }

    /// How many lists a live query last delivered, and when it delivered that count.
    final class ListCount: Sendable {
        private let latest = Lock((count: -1, at: 0.0))

        func set(_ count: Int, at time: Double) {
            latest.withLock { if $0.count != count { $0 = (count, time) } }
        }

        /// When the query showed `wanted` lists, if it did after `start` within `timeout` seconds.
        func wait(for wanted: Int, after start: Double, timeout: Double) async -> Double? {
            let deadline = now() + timeout
            while now() < deadline {
                let current = latest.withLock { $0 }
                if current.count == wanted, current.at >= start { return current.at }
                try? await Task.sleep(for: .microseconds(200))
            }
            return nil
        }
    }
}

@Table("remindersList")
struct SpacesBenchList: Sendable {
    @Column(primaryKey: true) var id: String
    var title: String
}
