// Side-by-side timings of BoutiqueDB against the raw SQLite C API, in one process.
//
//   swift run -c release boutique-benchmarks            fetch and insert, 9 rounds each
//   swift run -c release boutique-benchmarks --rounds 15
//   swift run -c release boutique-benchmarks --database  small writes through the actor, read scaling
//   swift run -c release boutique-benchmarks --changes   change-capture cost, live-query latency
//   swift run -c release boutique-benchmarks --sync      sync's cost: writes with sync on, pulls, pushes
//   swift run -c release boutique-benchmarks --network   sync over HTTP: live latency, many pushers, idle polls
//   swift run -c release boutique-benchmarks --bootstrap-memory  a new device's bootstrap: rows/s, bytes, memory, phases (--bootstrap-large adds 640,000 rows)
//   swift run -c release boutique-benchmarks --traffic   the bytes 2,000 pushed notes cost up and back
//   swift run -c release boutique-benchmarks --spaces    sharing: tenant size, moving in, rules on pushes, live share
//   swift run -c release boutique-benchmarks --push-throughput  one-change pushes on PostgreSQL against pgbench, and --push-large
//   swift run -c release boutique-benchmarks --push-large       one transaction of 20k, 80k, 200k rows: time and memory a row
//   swift run -c release boutique-benchmarks --server-memory    a server's memory at rest after a load spike,
//                                                                under stalled readers, and slow connections
//   swift run -c release boutique-benchmarks --once server-memory.clients   the stalled readers and slow connections only
//   swift run -c release boutique-benchmarks --once server-memory.answers   the move and refusal amplification only
//   swift run -c release boutique-benchmarks --long-polls       10,000 waiting long polls woken by one push
//   swift run -c release boutique-benchmarks --https-reuse  HTTPS requests/s: a connection per request against kept handles (Linux)
//   swift run -c release boutique-benchmarks --isolation another tenant's push and pull under one tenant's heavy load
//   swift run -c release boutique-benchmarks --functions  a Swift database function's cost per call
//   swift run -c release boutique-benchmarks --text       collaborative text: a keystroke diffed, 1,000 remote operations, records; through sync against a plain column
//   swift run -c release boutique-benchmarks --attachments  a 1 GiB attachment up and down (memory, against curl), pulls of rows pointing at attachments
//   swift run -c release boutique-benchmarks --attachments --attachment-mib 256   a smaller one
//   swift run -c release boutique-benchmarks --all       everything
//   swift run -c release boutique-benchmarks --once fetch.layer   one variant once (for callgrind)
//   swift run -c release boutique-benchmarks --once setup         only the set-up, to subtract
//   swift run -c release boutique-benchmarks --once cdc.full      one change-capture transaction
//   swift run -c release boutique-benchmarks --once writes.off    10,000 small writes (raw, off, full, handoff, …)
//   swift run -c release boutique-benchmarks --once spaces.pushes one spaces figure (tenant, movein, pushes, live)
import BoutiqueDB
import BoutiqueSQLite
import Foundation

let fetchRows = 200_000
let insertRows = 50_000

func makeDatabase() throws -> String {
    let path = FileManager.default.temporaryDirectory
        .appendingPathComponent("boutique-bench-\(UUID().uuidString).sqlite").path
    let connection = try Connection(path: path)
    try connection.execute("CREATE TABLE item (i0 INT, i1 INT, i2 INT, i3 INT, i4 INT, i5 INT, i6 INT, i7 INT, i8 INT, i9 INT)")
    return path
}

func makeFetchDatabase() throws -> String {
    let path = try makeDatabase()
    _ = try Layer.insert(path: path, rows: fetchRows)
    return path
}

@MainActor
func run() async throws {
    var rounds = 9
    var attachmentMebibytes = 1_024
    var once: String?
    var groups: Set<String> = []
    var arguments = CommandLine.arguments.dropFirst().makeIterator()
    while let argument = arguments.next() {
        switch argument {
        case "--rounds": rounds = arguments.next().flatMap(Int.init) ?? rounds
        case "--once": once = arguments.next()
        case "--database": groups.insert("database")
        case "--changes": groups.insert("changes")
        case "--sync": groups.insert("sync")
        case "--network": groups.insert("network")
        case "--bootstrap-memory": groups.insert("bootstrap-memory")
        case "--bootstrap-large": groups.formUnion(["bootstrap-memory", "bootstrap-large"])
        case "--traffic": groups.insert("traffic")
        case "--spaces": groups.insert("spaces")
        case "--push-throughput": groups.formUnion(["push-throughput", "push-large"])
        case "--push-large": groups.insert("push-large")
        case "--server-memory": groups.insert("server-memory")
        case "--long-polls": groups.insert("long-polls")
        case "--isolation": groups.insert("isolation")
        case "--functions": groups.insert("functions")
        case "--https-reuse": groups.insert("https-reuse")
        case "--text": groups.insert("text")
        case "--attachments": groups.insert("attachments")
        case "--attachment-mib": attachmentMebibytes = arguments.next().flatMap(Int.init) ?? attachmentMebibytes
        case "--serve-for-benchmark": try await ServerProcess.serve(store: arguments.next() ?? "sqlite")
        case "--all": groups.formUnion(["core", "database", "changes", "sync", "network"])
        default:
            print("usage: boutique-benchmarks [--rounds N] [--database] [--changes] [--sync] [--network] [--bootstrap-memory] [--bootstrap-large] [--traffic] [--spaces] [--push-throughput] [--push-large] [--server-memory] [--long-polls] [--isolation] [--functions] [--https-reuse] [--text] [--attachments [--attachment-mib N]] [--all] [--once WORKLOAD.VARIANT]")
            exit(2)
        }
    }
    if groups.isEmpty { groups = ["core"] }
    #if !BOUTIQUE_SYNC_HTTP
    // These run a sync server process over HTTP.
    if !groups.isDisjoint(with: ["network", "bootstrap-memory", "traffic", "push-throughput", "push-large", "server-memory", "long-polls"]) {
        print("the network, bootstrap-memory, traffic, push-throughput, server-memory and long-polls workloads need the HTTP front end: \(SyncNetworkWorkloads.missingHTTP)")
        exit(2)
    }
    #endif
    #if DEBUG
    print("warning: a debug build; run with -c release for meaningful figures")
    #endif
    if let once, once.hasPrefix("cdc.") {
        // One change-capture transaction in the named mode, for callgrind: the modes share the set-up,
        // so the difference of two counts is what capture costs.
        let name = String(once.dropFirst(4))
        if name.hasPrefix("raw."), let floor = RawChangeLog.Variant(rawValue: String(name.dropFirst(4))) {
            print(RawChangeLog.insertOnce(floor, rows: CDCWorkloads.rows))
            return
        }
        if name.hasPrefix("builder."), let mode = ChangeCaptureMode(rawValue: String(name.dropFirst(8))) {
            print(try await CDCWorkloads.insertOnce(mode: mode, path: .queryBuilder))
            return
        }
        guard let mode = ChangeCaptureMode(rawValue: name) else {
            print("unknown change capture variant \(once); try cdc.off, cdc.id, cdc.full, cdc.builder.off, cdc.builder.full, cdc.raw.plain, cdc.raw.ids, cdc.raw.images")
            exit(2)
        }
        print(try await CDCWorkloads.insertOnce(mode: mode))
        return
    }
    if once == "server-memory.clients" {
        try await AbusiveClientWorkloads.run()
        return
    }
    if once == "server-memory.answers" {
        try await AnswerAmplificationWorkloads.run()
        return
    }
    if let once, once.hasPrefix("sync.") {
        // One sync workload several times, for a profiler: sync.pull, sync.push, sync.local, sync.log,
        // and the awaited one-row writes with sync off, on, or set up without a sync object.
        let runs: [String: () async throws -> SyncWorkloads.Timing] = [
            "sync.pull": { try await SyncWorkloads.pullOnce(fetching: false) },
            "sync.push": { try await SyncWorkloads.pushOnce(merging: false) },
            "sync.local": SyncWorkloads.localCommitOnce, "sync.log": SyncWorkloads.readLogOnce,
            "sync.writes.off": { try await SyncWorkloads.smallWritesOnce(sync: false) },
            "sync.writes.on": { try await SyncWorkloads.smallWritesOnce(sync: true) },
            "sync.writes.stamps": { try await SyncWorkloads.smallWritesOnce(sync: true, keepingSync: false) },
        ]
        guard let workload = runs[once] else {
            print("unknown sync workload \(once); try \(runs.keys.sorted().joined(separator: ", "))")
            exit(2)
        }
        for _ in 0..<rounds { print(try await workload()) }
        return
    }
    if let once, once.hasPrefix("spaces.") {
        // One spaces figure, for a profiler: spaces.tenant, spaces.movein, spaces.pushes, spaces.live.
        guard try await SpacesWorkloads.runOne(String(once.dropFirst(7)), rounds: rounds) else {
            print("unknown spaces workload \(once); try spaces.tenant, spaces.movein, spaces.pushes, spaces.live")
            exit(2)
        }
        return
    }
    if let once, let variant = ["writes.raw": 0, "writes.off": 1, "writes.full": 2, "writes.detached": 3, "writes.hop": 4, "writes.handoff": 5, "writes.floor": 6, "writes.detached.full": 7, "writes.floor.handoff": 8][once] {
        // One run of 10,000 small write transactions, for a profiler.
        print(try await DatabaseWorkloads.smallWritesOnce(variant: variant))
        return
    }
    if once == nil && !groups.contains("core") {
        if groups.contains("database") {
            try await DatabaseWorkloads.measureSmallWrites(rounds: rounds)
            try await DatabaseWorkloads.measureReadScaling(rounds: rounds)
        }
        if groups.contains("changes") { try await ChangeBenchmarks.run(rounds: rounds) }
        if groups.contains("sync") { try await SyncWorkloads.run(rounds: rounds) }
        if groups.contains("network") { try await SyncNetworkWorkloads.run() }
        if groups.contains("bootstrap-memory") {
            try await BootstrapMemoryWorkloads.run(
                sizes: groups.contains("bootstrap-large") ? BootstrapMemoryWorkloads.largeSizes : BootstrapMemoryWorkloads.sizes)
        }
        if groups.contains("traffic") { try await SyncTrafficWorkloads.run() }
        if groups.contains("spaces") { try await SpacesWorkloads.run(rounds: rounds) }
        if groups.contains("push-large") { try await LargePushWorkloads.run() }
        if groups.contains("push-throughput") { try await PushThroughputWorkloads.run() }
        if groups.contains("server-memory") { try await ServerMemoryWorkloads.run() }
        if groups.contains("long-polls") { try await LongPollWorkloads.run() }
        if groups.contains("isolation") { try await IsolationWorkloads.run() }
        if groups.contains("functions") { try await DatabaseFunctionWorkloads.run(rounds: rounds) }
        if groups.contains("https-reuse") {
            #if BOUTIQUE_SYNC_HTTP && os(Linux)
            try await HTTPSReuseWorkloads.run(rounds: rounds)
            #else
            print("the https-reuse workload needs Linux (libcurl) and the HTTP front end")
            #endif
        }
        if groups.contains("text") {
            try CollaborativeTextWorkloads.run(rounds: rounds)
            try await CollaborativeTextSyncWorkloads.run(rounds: rounds)
        }
        if groups.contains("attachments") { try await AttachmentWorkloads.run(mebibytes: attachmentMebibytes, rounds: rounds) }
        return
    }

    let fetchPath = try makeFetchDatabase()
    let insertPath = try makeDatabase()
    defer {
        for path in [fetchPath, insertPath] { try? FileManager.default.removeItem(atPath: path) }
    }

    let workloads = [
        Workload(name: "fetch \(fetchRows) rows of item(i0…i9)", variants: [
            Variant(name: "raw C") { Raw.fetch(path: fetchPath) },
            Variant(name: "BoutiqueSQLite Statement") { try Layer.fetch(path: fetchPath) },
            Variant(name: "@Table Item.all.fetchAll") { try QueryBuilder.fetch(path: fetchPath) },
        ]),
        Workload(name: "insert \(insertRows) rows in one transaction", variants: [
            Variant(name: "raw C") { Raw.insert(path: insertPath, rows: insertRows) },
            Variant(name: "BoutiqueSQLite Statement") { try Layer.insert(path: insertPath, rows: insertRows) },
            Variant(name: "@Table Item.insert { … }.execute") {
                try QueryBuilder.insert(path: insertPath, rows: insertRows)
            },
        ]),
    ]

    if let once {
        // `--once setup` builds the databases and stops: its instruction count is what to subtract
        // from a variant's count to get the variant's own.
        if once == "setup" { return }
        let parts = once.split(separator: ".", maxSplits: 1).map(String.init)
        let variantKeys = ["raw": 0, "layer": 1, "table": 2]
        let workloadKeys = ["fetch": 0, "insert": 1]
        guard parts.count == 2, let w = workloadKeys[parts[0]], let v = variantKeys[parts[1]],
            v < workloads[w].variants.count
        else {
            print("unknown workload \(once); try fetch.raw, fetch.layer, fetch.table, insert.raw, insert.layer, insert.table")
            exit(2)
        }
        print(try workloads[w].variants[v].run())
        return
    }

    let harness = Harness(rounds: rounds)
    for workload in workloads { try harness.measure(workload) }
    if groups.contains("database") {
        try await DatabaseWorkloads.measureSmallWrites(rounds: rounds)
        try await DatabaseWorkloads.measureReadScaling(rounds: rounds)
    }
    if groups.contains("changes") { try await ChangeBenchmarks.run(rounds: rounds) }
    if groups.contains("sync") { try await SyncWorkloads.run(rounds: rounds) }
    if groups.contains("network") { try await SyncNetworkWorkloads.run() }
}

do {
    try await run()
} catch {
    print("benchmark failed: \(error)")
    exit(1)
}
