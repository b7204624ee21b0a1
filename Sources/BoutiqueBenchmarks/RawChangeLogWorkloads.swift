import CSQLite
import Foundation

/// The change benchmark's workload written directly against the C API: 50,000 single-row inserts in
/// one transaction, alone, then with one `turso_cdc` row per insert. It is what any change log of
/// that shape costs SQLite itself, the floor under ``CDCWorkloads``' ratios.
///
/// - `plain`: the inserts alone.
/// - `ids`: and a log row per insert without images (table, rowid), written at the end 64 rows to a
///   statement, as BoutiqueDB writes them.
/// - `images`: and a C preupdate hook that reads each new row's values and encodes its record, which
///   the log rows carry as `after`: change capture with nothing but the necessary work.
enum RawChangeLog {
    enum Variant: String, CaseIterable {
        case plain, ids, images
    }

    /// Times one transaction of `rows` inserts in `variant` on a fresh file: wall-clock and CPU seconds.
    static func insertOnce(_ variant: Variant, rows: Int) -> (wall: Double, cpu: Double) {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("boutique-bench-rawcdc-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        var db: OpaquePointer?
        sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
        defer { sqlite3_close_v2(db) }
        sqlite3_exec(db, "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL", nil, nil, nil)
        sqlite3_exec(db, "CREATE TABLE item (i0 INT, i1 INT, i2 INT, i3 INT, i4 INT, i5 INT, i6 INT, i7 INT, i8 INT, i9 INT)", nil, nil, nil)
        sqlite3_exec(db, """
            CREATE TABLE turso_cdc (change_id INTEGER PRIMARY KEY AUTOINCREMENT, change_time INTEGER,
              change_txn_id INTEGER, change_type INTEGER, table_name TEXT, id, "before" BLOB, "after" BLOB, updates BLOB)
            """, nil, nil, nil)
        let records = RecordBuffer(capacity: rows)
        if variant == .images {
            sqlite3_preupdate_hook(db, { context, db, _, _, _, _, _ in
                guard let context, let db else { return }
                Unmanaged<RecordBuffer>.fromOpaque(context).takeUnretainedValue().appendNewRow(db)
            }, Unmanaged.passUnretained(records).toOpaque())
        }
        var insert: OpaquePointer?
        sqlite3_prepare_v3(
            db, "INSERT INTO item (i0, i1, i2, i3, i4, i5, i6, i7, i8, i9) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            -1, 0, &insert, nil)
        defer { sqlite3_finalize(insert) }
        let logRowsPerStatement = 64
        let log = prepareLogInsert(db, rows: logRowsPerStatement)
        let lastLog = prepareLogInsert(db, rows: rows % logRowsPerStatement)
        defer { sqlite3_finalize(log); sqlite3_finalize(lastLog) }

        let startCPU = CDCWorkloads.processCPUTime()
        let start = DispatchTime.now().uptimeNanoseconds
        sqlite3_exec(db, "BEGIN IMMEDIATE", nil, nil, nil)
        for row in 0..<rows {
            for column in 0..<10 { sqlite3_bind_int64(insert, Int32(column + 1), Int64(row + column)) }
            sqlite3_step(insert)
            sqlite3_reset(insert)
        }
        if variant != .plain {
            var row = 0
            while row < rows {
                let count = min(logRowsPerStatement, rows - row)
                let log = count == logRowsPerStatement ? log : lastLog
                sqlite3_bind_int64(log, 1, Int64(Date().timeIntervalSince1970))
                sqlite3_bind_int64(log, 2, 1)
                var parameter: Int32 = 3
                for index in row..<row + count {
                    sqlite3_bind_int64(log, parameter, 1)
                    sqlite3_bind_text(log, parameter + 1, "item", 4, nil)
                    sqlite3_bind_int64(log, parameter + 2, Int64(index + 1))
                    sqlite3_bind_null(log, parameter + 3)
                    if variant == .images {
                        records.bind(index, to: log, at: parameter + 4)
                    } else {
                        sqlite3_bind_null(log, parameter + 4)
                    }
                    sqlite3_bind_null(log, parameter + 5)
                    parameter += 6
                }
                sqlite3_step(log)
                sqlite3_reset(log)
                row += count
            }
        }
        sqlite3_exec(db, "COMMIT", nil, nil, nil)
        let end = DispatchTime.now().uptimeNanoseconds
        let endCPU = CDCWorkloads.processCPUTime()
        return (Double(end - start) / 1e9, endCPU - startCPU)
    }

    /// `INSERT INTO turso_cdc` of `rows` rows sharing the time and transaction id (`nil` for none).
    private static func prepareLogInsert(_ db: OpaquePointer?, rows: Int) -> OpaquePointer? {
        guard rows > 0 else { return nil }
        var statement: OpaquePointer?
        sqlite3_prepare_v3(
            db, "INSERT INTO turso_cdc(change_time, change_txn_id, change_type, table_name, id, \"before\", \"after\", updates) VALUES "
                + Array(repeating: "(?1, ?2, ?, ?, ?, ?, ?, ?)", count: rows).joined(separator: ", "),
            -1, 0, &statement, nil)
        return statement
    }
}

/// Records of integer rows, encoded back to back as SQLite's record format has them.
private final class RecordBuffer {
    private var bytes: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var used = 0
    private var starts: [Int] = []

    init(capacity rows: Int) {
        capacity = rows * 64
        bytes = .allocate(capacity: capacity)
        starts.reserveCapacity(rows + 1)
    }

    deinit { bytes.deallocate() }

    /// Encodes the row the preupdate hook is reporting (integers only, as the workload's rows are).
    func appendNewRow(_ db: OpaquePointer) {
        let count = Int(sqlite3_preupdate_count(db))
        if used + 1 + count * 9 > capacity { grow() }
        starts.append(used)
        let header = bytes + used
        header[0] = UInt8(1 + count)
        var body = header + 1 + count
        for index in 0..<count {
            var value: OpaquePointer?
            sqlite3_preupdate_new(db, Int32(index), &value)
            let integer = sqlite3_value_int64(value)
            let (serialType, width) = Self.serialType(integer)
            header[1 + index] = serialType
            for byte in stride(from: width - 1, through: 0, by: -1) {
                body.pointee = UInt8(truncatingIfNeeded: integer >> (byte * 8))
                body += 1
            }
        }
        used = body - bytes
    }

    /// Binds the record of row `index` (in insertion order) to `statement`, without copying it.
    func bind(_ index: Int, to statement: OpaquePointer?, at parameter: Int32) {
        let start = starts[index]
        let end = index + 1 < starts.count ? starts[index + 1] : used
        sqlite3_bind_blob(statement, parameter, bytes + start, Int32(end - start), nil)
    }

    private func grow() {
        let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2)
        larger.update(from: bytes, count: used)
        bytes.deallocate()
        bytes = larger
        capacity *= 2
    }

    /// The serial type and width of an integer in the record format.
    private static func serialType(_ value: Int64) -> (UInt8, Int) {
        if value == 0 { return (8, 0) }
        if value == 1 { return (9, 0) }
        let magnitude = value < 0 ? ~value : value
        if magnitude <= 0x7F { return (1, 1) }
        if magnitude <= 0x7FFF { return (2, 2) }
        if magnitude <= 0x7F_FFFF { return (3, 3) }
        if magnitude <= 0x7FFF_FFFF { return (4, 4) }
        if magnitude <= 0x7FFF_FFFF_FFFF { return (5, 6) }
        return (6, 8)
    }
}
