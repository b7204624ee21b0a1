import CSQLite
import Foundation

/// The GRDB-style `item(i0 … i9)` workloads written directly against the C API: the physical limit
/// a wrapper is measured against.
enum Raw {
    struct Item {
        var i0, i1, i2, i3, i4, i5, i6, i7, i8, i9: Int
    }

    static func open(_ path: String) -> OpaquePointer? {
        var db: OpaquePointer?
        sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
        return db
    }

    static func fetch(path: String) -> Int {
        let db = open(path)
        defer { sqlite3_close_v2(db) }
        var statement: OpaquePointer?
        sqlite3_prepare_v3(db, "SELECT i0, i1, i2, i3, i4, i5, i6, i7, i8, i9 FROM item", -1, 0, &statement, nil)
        defer { sqlite3_finalize(statement) }
        var items: [Item] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            items.append(Item(
                i0: Int(sqlite3_column_int64(statement, 0)), i1: Int(sqlite3_column_int64(statement, 1)),
                i2: Int(sqlite3_column_int64(statement, 2)), i3: Int(sqlite3_column_int64(statement, 3)),
                i4: Int(sqlite3_column_int64(statement, 4)), i5: Int(sqlite3_column_int64(statement, 5)),
                i6: Int(sqlite3_column_int64(statement, 6)), i7: Int(sqlite3_column_int64(statement, 7)),
                i8: Int(sqlite3_column_int64(statement, 8)), i9: Int(sqlite3_column_int64(statement, 9))))
        }
        return items.count + (items.last?.i9 ?? 0)
    }

    static func insert(path: String, rows: Int) -> Int {
        let db = open(path)
        defer { sqlite3_close_v2(db) }
        sqlite3_exec(db, "DELETE FROM item", nil, nil, nil)
        sqlite3_exec(db, "BEGIN", nil, nil, nil)
        var statement: OpaquePointer?
        sqlite3_prepare_v3(
            db, "INSERT INTO item (i0, i1, i2, i3, i4, i5, i6, i7, i8, i9) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            -1, 0, &statement, nil)
        for row in 0..<rows {
            for column in 0..<10 { sqlite3_bind_int64(statement, Int32(column + 1), Int64(row + column)) }
            sqlite3_step(statement)
            sqlite3_reset(statement)
        }
        sqlite3_finalize(statement)
        sqlite3_exec(db, "COMMIT", nil, nil, nil)
        return Int(sqlite3_last_insert_rowid(db))
    }
}
