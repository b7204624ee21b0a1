import BoutiqueSQLite

/// The same workloads through `BoutiqueSQLite`'s `Connection` and `Statement`.
enum Layer {
    struct Item {
        var i0, i1, i2, i3, i4, i5, i6, i7, i8, i9: Int
    }

    static func fetch(path: String) throws -> Int {
        let connection = try Connection(path: path)
        let statement = try connection.prepare("SELECT i0, i1, i2, i3, i4, i5, i6, i7, i8, i9 FROM item")
        var items: [Item] = []
        while try statement.step() {
            items.append(Item(
                i0: statement.int(at: 0), i1: statement.int(at: 1), i2: statement.int(at: 2),
                i3: statement.int(at: 3), i4: statement.int(at: 4), i5: statement.int(at: 5),
                i6: statement.int(at: 6), i7: statement.int(at: 7), i8: statement.int(at: 8),
                i9: statement.int(at: 9)))
        }
        return items.count + (items.last?.i9 ?? 0)
    }

    static func insert(path: String, rows: Int) throws -> Int {
        let connection = try Connection(path: path)
        try connection.execute("DELETE FROM item")
        try connection.transaction {
            let statement = try connection.prepare(
                "INSERT INTO item (i0, i1, i2, i3, i4, i5, i6, i7, i8, i9) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
            for row in 0..<rows {
                for column in 0..<10 { try statement.bind(row + column, at: Int32(column + 1)) }
                try statement.run()
            }
        }
        return Int(connection.lastInsertRowID)
    }
}
