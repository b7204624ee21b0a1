import BoutiqueQueries
import BoutiqueSQLite
import BoutiqueTestSupport
import Testing

/// Random query-builder programs over random data, each checked against the same query written by
/// hand: the same rows in the same order, or an error from both.
@Suite("Fuzz: query builder against hand-written SQL")
struct QueryBuilderFuzzTests {
    /// Programs per seed; each seed starts a fresh database every `programsPerDatabase` programs.
    static let programsPerSeed = 250
    static let programsPerDatabase = 25

    @Test("single-table filters, orders, limits and projections", arguments: 0..<4)
    func singleTable(seed: UInt64) async throws {
        try await run(SingleTableProgram.self, seed: 0xF022_0100 + seed)
    }

    @Test("inner joins with filters and orders on both sides", arguments: 0..<2)
    func innerJoins(seed: UInt64) async throws {
        try await run(InnerJoinProgram.self, seed: 0xF022_0200 + seed)
    }

    @Test("left joins whose reminder filters restrict the match", arguments: 0..<2)
    func leftJoins(seed: UInt64) async throws {
        try await run(LeftJoinProgram.self, seed: 0xF022_0300 + seed)
    }

    @Test("union, intersect and except of filtered selections", arguments: 0..<2)
    func compoundSelects(seed: UInt64) async throws {
        try await run(CompoundProgram.self, seed: 0xF022_0400 + seed)
    }

    @Test("grouped aggregates with filters, distinct and having", arguments: 0..<2)
    func groupedAggregates(seed: UInt64) async throws {
        try await run(GroupedAggregateProgram.self, seed: 0xF022_0500 + seed)
    }

    /// Yields between programs: the suites share the cooperative pool (a thread per core), and a loop
    /// that never suspends would hold a thread the others' awaits need.
    private func run<P: FuzzProgram>(_ program: P.Type, seed: UInt64) async throws {
        var random = SeededRandom(seed: seed)
        var connection: Connection?
        var data = FuzzData()
        var checked = 0
        var nonEmpty = 0
        var mismatches = 0
        for index in 0..<Self.programsPerSeed {
            if index % Self.programsPerDatabase == 0 {
                (connection, data) = try FuzzModels.makeDatabase(&random)
            }
            guard let connection else { return }
            await Task.yield()
            let program = P.random(&random, data: data)
            let (sql, arguments) = program.handWritten()
            let expected = Result { try connection.fetchRows(sql, arguments).rows }
            let actual = Result { try program.builderRows(connection) }
            checked += 1
            switch (expected, actual) {
            case (.success(let expectedRows), .success(let actualRows)):
                if !expectedRows.isEmpty, expectedRows != [[.integer(0)]] { nonEmpty += 1 }
                guard expectedRows != actualRows else { continue }
                mismatches += 1
                Issue.record("""
                    seed \(seed) program \(index): the builder returned other rows
                    hand-written: \(sql)
                    arguments: \(arguments)
                    expected: \(expectedRows)
                    builder: \(actualRows)
                    """)
            case (.failure, .failure):
                continue
            case (.success(let rows), .failure(let error)):
                mismatches += 1
                Issue.record("seed \(seed) program \(index): the builder threw \(error); by hand: \(sql) \(arguments) → \(rows)")
            case (.failure(let error), .success):
                mismatches += 1
                Issue.record("seed \(seed) program \(index): the hand-written query failed (\(error)): \(sql) \(arguments)")
            }
            if mismatches >= 5 { break }
        }
        #expect(checked == Self.programsPerSeed)
        // A generator whose programs all come back empty would prove little.
        #expect(nonEmpty > checked / 4, "only \(nonEmpty) of \(checked) programs returned rows")
        print("fuzz \(P.self) seed \(String(seed, radix: 16)): \(checked) programs checked, \(nonEmpty) returned rows")
    }
}
