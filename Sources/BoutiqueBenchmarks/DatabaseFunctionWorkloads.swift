import BoutiqueDB
import BoutiqueSQLite
import CSQLite
import Foundation

/// A table of short titles for the database-function workload.
@Table("word")
struct Word: Sendable {
    let id: Int
    var title: String
}

/// The function every variant calls: its text with "!" after it.
@DatabaseFunction("exclaim")
func benchmarkExclaim(_ text: String) -> String { text + "!" }

/// What a Swift database function costs per call: `SELECT sum(length(exclaim(title))) FROM word` over
/// 100,000 rows, the function registered as a C callback on the raw API (the floor), as a
/// BoutiqueSQLite closure over `DatabaseValue`s, and as a `@DatabaseFunction` added in
/// `prepareDatabase`, whose arguments are read by the row decoder. The same sum written in SQL alone
/// shows what SQLite spends on the rest of the statement.
enum DatabaseFunctionWorkloads {
    static let rows = 100_000
    static let sumSQL = "SELECT sum(length(exclaim(title))) FROM word"

    static func run(rounds: Int) async throws {
        let path = DatabaseWorkloads.temporaryPath("functions")
        defer { DatabaseWorkloads.remove(path) }
        try fill(path)

        var options = BoutiqueDB.Options()
        options.prepareDatabase { conn in try conn.add(function: $benchmarkExclaim) }
        let database = try await BoutiqueDB.open(url: URL(fileURLWithPath: path), options: options)
        let rawDB = Raw.open(path)
        defer { sqlite3_close_v2(rawDB) }
        sqlite3_create_function_v2(rawDB, "exclaim", 1, SQLITE_UTF8, nil, rawExclaim, nil, nil, nil)
        let layer = try Connection(path: path)
        try layer.createFunction("exclaim", argumentCount: 1) { arguments in
            guard case .text(let text) = arguments[0] else { throw SQLFunctionError("exclaim: expected text") }
            return .text(text + "!")
        }

        let variants: [(String, () async throws -> Int)] = [
            ("raw C callback", { rawSum(rawDB, sumSQL) }),
            ("SQL alone (title || '!')", { rawSum(rawDB, "SELECT sum(length(title || '!')) FROM word") }),
            ("createFunction [DatabaseValue]", { try layerSum(layer) }),
            ("@DatabaseFunction $exclaim", {
                try await database.read { conn in
                    try Word.select { $benchmarkExclaim($0.title).length().sum() }.fetchOne(conn.connection) ?? 0
                } ?? 0
            }),
        ]
        var checksums: [Int] = []
        for (_, variant) in variants { checksums.append(try await variant()) }
        if Set(checksums).count > 1 { print("! database functions: variants disagree on the checksum \(checksums)") }
        var samples = Array(repeating: [Double](), count: variants.count)
        for _ in 0..<rounds {
            for (index, (_, variant)) in variants.enumerated() {
                let start = DispatchTime.now().uptimeNanoseconds
                _ = try await variant()
                samples[index].append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            }
        }
        await database.close()
        print("\n\(sumSQL) over \(rows) rows — median of \(rounds) rounds (min … max), ratio to the raw C callback")
        let baseline = BenchmarkStatistics.median(samples[0])
        for (index, (name, _)) in variants.enumerated() {
            BenchmarkStatistics.printLine(
                name, median: BenchmarkStatistics.median(samples[index]), min: samples[index].min() ?? .nan,
                max: samples[index].max() ?? .nan, baseline: baseline)
        }
        for index in 2..<variants.count {
            let extra = (BenchmarkStatistics.median(samples[index]) - baseline) / Double(rows) * 1e9
            print(String(format: "  %@: %.0f ns a call more than the C callback", variants[index].0, extra))
        }
    }

    static func fill(_ path: String) throws {
        let connection = try Connection(path: path)
        try connection.execute("CREATE TABLE word (id INTEGER PRIMARY KEY, title TEXT NOT NULL)")
        try connection.transaction {
            let insert = try connection.prepare("INSERT INTO word(id, title) VALUES (?, ?)")
            for row in 0..<rows {
                try insert.bind(row, at: 1)
                try insert.bind("note \(row)", at: 2)
                try insert.run()
            }
        }
    }

    static func rawSum(_ db: OpaquePointer?, _ sql: String) -> Int {
        var statement: OpaquePointer?
        sqlite3_prepare_v3(db, sql, -1, 0, &statement, nil)
        defer { sqlite3_finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW else { return -1 }
        return Int(sqlite3_column_int64(statement, 0))
    }

    static func layerSum(_ connection: Connection) throws -> Int {
        guard case .integer(let sum) = try connection.fetchValue(sumSQL) else { return -1 }
        return Int(sum)
    }
}

/// `exclaim` on the C API, as a C programmer writes it: the argument's bytes and a "!" into a buffer
/// SQLite copies.
private let rawExclaim: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = {
    context, _, values in
    guard let value = values?[0], let text = sqlite3_value_text(value) else {
        sqlite3_result_null(context)
        return
    }
    let count = Int(sqlite3_value_bytes(value))
    let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: count + 1)
    defer { buffer.deallocate() }
    buffer.update(from: text, count: count)
    buffer[count] = UInt8(ascii: "!")
    buffer.withMemoryRebound(to: CChar.self, capacity: count + 1) {
        sqlite3_result_text(context, $0, Int32(count + 1), boutique_sqlite_transient())
    }
}
