import BoutiqueQueries
import BoutiqueSQLite
import Testing

/// A table's `Columns(…)` leaves out the columns that have a default value: each takes its property's
/// default, bound as the column stores it (`nil` for an optional `var` without one).
@Suite("Columns with default arguments")
struct ColumnsDefaultArgumentsTests {
    let db: Connection
    init() throws { db = try makeGardenDatabase() }

    @Test func leftOutColumnsReadTheirDefaults() throws {
        // `isBlooming` and `isArchived` default to `false`, `rank` is an optional `var`.
        let query = Plant.where { $0.id.eq(2) }.select {
            Plant.Columns(id: $0.id, bedID: $0.bedID, name: $0.name, height: $0.height, waterings: $0.waterings)
        }
        #expect(query.sql.hasPrefix(#"SELECT "plant"."id", "plant"."bedID", "plant"."name", "plant"."height", "plant"."waterings", ?, ?, ? FROM "plant""#))
        #expect(query.bindings == [.integer(0), .integer(0), .null, .integer(2)])
        // Mint is blooming in the table; the row built from the defaults is not.
        #expect(try query.fetchOne(db) == Plant(id: 2, bedID: 1, name: "Mint", height: 0.6, waterings: -3))

        // A column given explicitly is read from it, the others still from their defaults.
        let given = try Plant.where { $0.id.eq(2) }.select {
            Plant.Columns(id: $0.id, bedID: $0.bedID, name: $0.name, height: $0.height, waterings: $0.waterings, isBlooming: $0.isBlooming, rank: Int?(7))
        }.fetchOne(db)
        #expect(given == Plant(id: 2, bedID: 1, name: "Mint", height: 0.6, waterings: -3, isBlooming: true, rank: 7))
    }

    @Test func anOptionalVarWithoutADefaultIsNil() throws {
        let rows = try Gardener.order { $0.id }.select { Gardener.Columns(id: $0.id, name: $0.name) }.fetchAll(db)
        #expect(rows == [Gardener(id: 1, name: "Olu"), Gardener(id: 2, name: "Pia"), Gardener(id: 3, name: "Rafe")])
    }
}
