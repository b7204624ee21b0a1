import BoutiqueQueries
import BoutiqueSQLite
import Testing

/// The plain `encode(_:)` overloads `@Table` calls for standard types store exactly what the generic
/// `encode(_:as:)` stores, whether the encoder collects values or binds them to a statement.
@Suite struct RowEncoderStandardTypesTests {
    @Test func collectsWhatTheGenericEncodeCollects() {
        var plain = RowEncoder()
        plain.encode(42 as Int)
        plain.encode(nil as Int?)
        plain.encode(Int64.max)
        plain.encode(7 as Int64?)
        plain.encode(1.5)
        plain.encode(nil as Double?)
        plain.encode(true)
        plain.encode(false as Bool?)
        plain.encode("note")
        plain.encode(nil as String?)

        var generic = RowEncoder()
        generic.encode(42, as: Int.self)
        generic.encode(nil, as: Int?.self)
        generic.encode(Int64.max, as: Int64.self)
        generic.encode(7, as: Int64?.self)
        generic.encode(1.5, as: Double.self)
        generic.encode(nil, as: Double?.self)
        generic.encode(true, as: Bool.self)
        generic.encode(false, as: Bool?.self)
        generic.encode("note", as: String.self)
        generic.encode(nil, as: String?.self)

        #expect(plain.values == generic.values)
        #expect(plain.values == [
            .integer(42), .null, .integer(Int64.max), .integer(7), .real(1.5), .null, .integer(1), .integer(0),
            .text("note"), .null,
        ])
    }

    @Test func bindsEachValueToTheNextParameter() throws {
        let connection = try Connection(path: ":memory:")
        let statement = try connection.prepare("SELECT ?, ?, ?, ?, ?")
        var encoder = RowEncoder(binding: statement)
        encoder.encode(3 as Int)
        encoder.encode(2.5)
        encoder.encode(true)
        encoder.encode("text")
        encoder.encode(nil as String?)
        try encoder.checkBindings()

        #expect(try statement.step())
        #expect(statement.int64(at: 0) == 3)
        #expect(statement.double(at: 1) == 2.5)
        #expect(statement.int64(at: 2) == 1)
        #expect(String(decoding: statement.textBytes(at: 3), as: UTF8.self) == "text")
        #expect(statement.isNull(at: 4))
    }
}
