import BoutiqueDB

/// The workloads through `@Table` models and the query builder.
@Table
struct Item: Sendable {
    var i0: Int
    var i1: Int
    var i2: Int
    var i3: Int
    var i4: Int
    var i5: Int
    var i6: Int
    var i7: Int
    var i8: Int
    var i9: Int
}

enum QueryBuilder {
    static func fetch(path: String) throws -> Int {
        let connection = try Connection(path: path)
        let items = try Item.all.fetchAll(connection)
        return items.count + (items.last?.i9 ?? 0)
    }

    static func insert(path: String, rows: Int) throws -> Int {
        let connection = try Connection(path: path)
        try connection.execute("DELETE FROM item")
        try connection.transaction {
            try Item.insert {
                for row in 0..<rows {
                    Item(
                        i0: row, i1: row + 1, i2: row + 2, i3: row + 3, i4: row + 4, i5: row + 5, i6: row + 6,
                        i7: row + 7, i8: row + 8, i9: row + 9)
                }
            }.execute(connection)
        }
        return Int(connection.lastInsertRowID)
    }
}
