import BoutiqueDB
import BoutiqueSync
import Foundation

/// Answers that could grow far past what a request asks for, on a server process with rules (lists are
/// spaces, a reminder lives in its list's), over HTTP:
///
/// - move amplification: a reminder of 3 MB moved between two lists 150 times; a member of one list
///   then pulls with a small limit. Each move into that list is a row arriving with its whole state: a
///   page that did not count those states would carry 75 × 3 MB. The first answer's bytes, the largest
///   of all the pages to the end, and the server's resident memory are printed.
/// - refusal amplification: a viewer of a list holding three readable 3 MB reminders pushes 40
///   transactions that each edit all three; each refusal carries the server's version of the rows it
///   touched (9 MB), and an answer that did not stop at a page of them would carry 360 MB. The first
///   answer's bytes and refusals, the pushes it takes to hand all 40, and the server's memory.
///
/// Answer bytes are the answers as the transport decoded them, encoded again as JSON.
///
///     swift run -c release boutique-benchmarks --server-memory
enum AnswerAmplificationWorkloads {
    static let rulesJSON = SpacesWorkloads.rulesJSON
    /// A reminder's three large columns, 1 MB each (the server's default value limit is 1 MiB).
    static let largeColumns = ["title", "notes", "attachmentText"]
    static let valueBytes = 1_000_000
    static let moves = 150
    static let refusedTransactions = 40

    static let shapes = [
        SyncTableShape(table: "remindersList", columns: ["id", "title"]),
        SyncTableShape(table: "reminder", columns: ["id", "listID"] + largeColumns, references: ["listID": "remindersList"]),
    ]

    static func run() async throws {
        var settings = ServerProcess.Settings()
        settings.rulesJSON = rulesJSON
        let server = try ServerProcess(store: "sqlite", settings: settings)
        defer { server.stop() }
        let url = try await server.url()
        try await moveAmplification(server: server, url: url)
        try await refusalAmplification(server: server, url: url)
    }

    /// A replica pushing through its own transport, one transaction per list of changes.
    struct Writer {
        let transport: HTTPSyncTransport
        let replica: String
        var base: Int64 = 0
        var digest: UInt64?
        var next: Int64 = 1
        var described = false

        init(url: URL, tenant: String, user: String) throws {
            transport = HTTPSyncTransport(url: url, token: try SyncNetworkWorkloads.token(tenant: tenant, user: user), timeout: .seconds(120))
            replica = "\(user)-replica"
        }

        /// Pushes `transactions` (each a list of changes made by `make` with the transaction's stamp)
        /// in one request; the answer.
        @discardableResult
        mutating func push(_ transactions: [(SyncStamp) -> [SyncChange]]) async throws -> PushResponse {
            var made: [SyncTransaction] = []
            for make in transactions {
                let stamp = SpacesWorkloads.stamp(replica + "-w")
                made.append(SyncTransaction(id: next, stamp: stamp, changes: make(stamp)))
                next += 1
                // Stamps of one writer increase: one millisecond apart at least.
                try await Task.sleep(for: .milliseconds(1))
            }
            var request = PushRequest(
                replica: replica, baseTransactionID: base, baseDigest: digest, schemaVersion: 1, transactions: made,
                tables: described ? nil : AnswerAmplificationWorkloads.shapes)
            request.replicaSecret = replica + "-secret"
            let response = try await transport.push(request)
            described = true
            (base, digest) = (response.appliedThrough, response.digest)
            return response
        }
    }

    static func reminder(_ id: String, list: String, _ stamp: SyncStamp) -> SyncChange {
        let large = String(repeating: "r", count: valueBytes)
        return SyncChange(
            table: "reminder", key: .text(id), kind: .insert,
            columns: [SyncColumnValue(name: "id", value: .text(id)), SyncColumnValue(name: "listID", value: .text(list))]
                + largeColumns.map { SyncColumnValue(name: $0, value: .text(large)) },
            stamp: stamp)
    }

    static func update(_ id: String, _ column: String, _ value: String, _ stamp: SyncStamp) -> SyncChange {
        SyncChange(table: "reminder", key: .text(id), kind: .update, columns: [SyncColumnValue(name: column, value: .text(value))], stamp: stamp)
    }

    static func share(_ writer: Writer, list: String, with user: String, role: SyncRole) async throws {
        let response = try await writer.transport.membership(
            MembershipRequest(table: "remindersList", key: .text(list), user: user, role: role), action: .share)
        if let reason = response.reason { throw BoutiqueError.syncRefused(reason: reason) }
    }

    static func accept(_ response: PushResponse, _ what: String) throws {
        try SpacesWorkloads.accept(response, what)
    }

    static func bytes<T: Encodable>(_ answer: T) throws -> Int { try SyncJSON.encoder().encode(answer).count }

    static func moveAmplification(server: ServerProcess, url: URL) async throws {
        let tenant = "moves-\(UUID().uuidString)"
        var ana = try Writer(url: url, tenant: tenant, user: "ana")
        try accept(try await ana.push([
            { [SpacesWorkloads.listInsert("A", $0), SpacesWorkloads.listInsert("B", $0)] },
        ]), "the lists")
        try accept(try await ana.push([{ [reminder("R", list: "A", $0)] }]), "the large reminder")
        try await share(ana, list: "A", with: "bob", role: .viewer)
        let bob = HTTPSyncTransport(url: url, token: try SyncNetworkWorkloads.token(tenant: tenant, user: "bob"), timeout: .seconds(120))
        // Bob's device has list A and the reminder.
        var cursor: Int64 = 0
        var more = true
        while more {
            let page = try await bob.pull(PullRequest(replica: "bob-replica", cursor: cursor, limit: 100))
            (cursor, more) = (page.nextCursor, page.hasMore)
        }
        for round in 0..<(moves / 50) {
            // Fifty moves a push (B, A, B, …): each its own transaction.
            try accept(try await ana.push((0..<50).map { index in
                let list = (round * 50 + index) % 2 == 0 ? "B" : "A"
                return { stamp in [update("R", "listID", list, stamp)] }
            }), "the moves")
        }
        let before = server.residentBytes()
        let start = SyncNetworkWorkloads.now()
        let first = try await bob.pull(PullRequest(replica: "bob-replica", cursor: cursor, limit: 100))
        let firstBytes = try bytes(first)
        var largest = firstBytes
        var total = firstBytes
        var pages = 1
        var arrivals = first.events?.filter { $0.kind == .rowArrived }.count ?? 0
        (cursor, more) = (first.nextCursor, first.hasMore)
        while more {
            let page = try await bob.pull(PullRequest(replica: "bob-replica", cursor: cursor, limit: 100))
            let size = try bytes(page)
            (largest, total, pages) = (max(largest, size), total + size, pages + 1)
            arrivals += page.events?.filter { $0.kind == .rowArrived }.count ?? 0
            (cursor, more) = (page.nextCursor, page.hasMore)
        }
        let seconds = SyncNetworkWorkloads.now() - start
        print("\nmove amplification: a 3 MB reminder moved between two lists \(moves) times; a member of one list pulls with limit 100")
        print(String(format: "  first answer %.2f MB (%d changes, more after it: ", mb(firstBytes), first.changes.count) + (first.hasMore ? "yes" : "no")
              + String(format: "); to the end: %d pages, the largest %.2f MB, %.1f MB in all, %d rows arrived; %.1f s",
                       pages, mb(largest), mb(total), arrivals, seconds))
        print(String(format: "  unbounded, one page would carry %d arrivals × 3 MB = %.0f MB; a page's budget is 4 MiB of row states (one row past it at most)",
                     moves / 2, Double(moves / 2 * 3 * valueBytes) / 1_048_576))
        print(String(format: "  server memory %.1f MB before the pulls, %.1f MB after, peak %.1f MB",
                     mb(before), mb(server.residentBytes()), mb(server.peakBytes())))
    }

    static func refusalAmplification(server: ServerProcess, url: URL) async throws {
        let tenant = "refusals-\(UUID().uuidString)"
        var ana = try Writer(url: url, tenant: tenant, user: "ana")
        try accept(try await ana.push([{ [SpacesWorkloads.listInsert("C", $0)] }]), "the list")
        let rows = ["R1", "R2", "R3"]
        for row in rows { try accept(try await ana.push([{ [reminder(row, list: "C", $0)] }]), "a large reminder") }
        try await share(ana, list: "C", with: "bob", role: .viewer)
        var bob = try Writer(url: url, tenant: tenant, user: "bob")
        try accept(try await bob.push([]), "the viewer's first push")
        let before = server.residentBytes()
        let start = SyncNetworkWorkloads.now()
        let edits: [(SyncStamp) -> [SyncChange]] = (0..<refusedTransactions).map { index in
            { stamp in rows.map { update($0, "title", "edit \(index)", stamp) } }
        }
        var pending = edits
        var firstAnswer: (bytes: Int, refusals: Int, rowBytes: Int)?
        var largest = 0
        var pushes = 0
        var refused = 0
        // Each answer hands the transactions up to the one whose refusal would pass a page; the device
        // pushes the rest again (as new transactions here: the viewer's writes are the same).
        while !pending.isEmpty, pushes < 2 * refusedTransactions {
            let through = bob.base
            let response = try await bob.push(pending)
            pushes += 1
            let handled = Int(response.appliedThrough - through)
            let size = try bytes(response)
            let refusals = response.refusals ?? []
            refused += refusals.count
            largest = max(largest, size)
            if firstAnswer == nil {
                firstAnswer = (size, refusals.count, refusals.reduce(0) { $0 + $1.rows.reduce(0) { $0 + $1.state.record().count } })
            }
            // What was not handled goes again, after what was; the ids move on.
            bob.next = response.appliedThrough + 1
            pending = Array(pending.suffix(max(0, pending.count - handled)))
        }
        let seconds = SyncNetworkWorkloads.now() - start
        let first = firstAnswer ?? (0, 0, 0)
        print("\nrefusal amplification: a viewer pushes \(refusedTransactions) transactions each editing three readable 3 MB reminders")
        print(String(format: "  first answer %.2f MB: %d refusals carrying %.2f MB of row states; %d pushes handed all %d (%d refusals), the largest answer %.2f MB; %.1f s",
                     mb(first.bytes), first.refusals, mb(first.rowBytes), pushes, refusedTransactions, refused, mb(largest), seconds))
        print(String(format: "  unbounded, the first answer would carry %d × 9 MB = %.0f MB; refusals stop at a page (4 MiB) of row states, the first always goes",
                     refusedTransactions, Double(refusedTransactions * 3 * 3 * valueBytes) / 1_048_576))
        print(String(format: "  server memory %.1f MB before the pushes, %.1f MB after, peak %.1f MB",
                     mb(before), mb(server.residentBytes()), mb(server.peakBytes())))
    }

    static func mb(_ bytes: Int) -> Double { Double(bytes) / 1_048_576 }
}
