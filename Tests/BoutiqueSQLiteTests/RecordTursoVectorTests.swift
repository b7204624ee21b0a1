import BoutiqueSQLite
import BoutiqueTestSupport
import Foundation
import Testing

/// The records the Turso engine wrote into `turso_cdc`, captured by `Scripts/capture-turso-vectors.py`.
struct TursoVectorFixture: Decodable {
    struct Schema: Decodable {
        let tursoCdc: String
        let tursoCdcVersion: String
        let tursoCdcVersionRows: [[String]]
    }

    /// One value in the fixture's typed JSON form.
    struct Value: Decodable {
        let type: String
        let value: String?
        let bits: String?
        let utf8: String?
    }

    struct Record: Decodable {
        let hex: String
        let values: [Value]
    }

    struct Change: Decodable {
        let changeId: Int64
        let changeTxnId: Int64
        let changeType: Int
        let tableName: String?
        let id: Value
        let statement: String
        let before: Record?
        let after: Record?
        let updates: Record?
    }

    let cdcPragma: String
    let schema: Schema
    let tables: [String: [String]]
    let changes: [Change]
    let mismatches: [String]

    static func load() throws -> TursoVectorFixture {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/turso-record-vectors.json")
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(TursoVectorFixture.self, from: Data(contentsOf: url))
    }

    /// Every record in the fixture, named by where it came from.
    var records: [(name: String, bytes: [UInt8], values: [DatabaseValue])] {
        get throws {
            var records: [(String, [UInt8], [DatabaseValue])] = []
            for change in changes {
                for (column, record) in [("before", change.before), ("after", change.after), ("updates", change.updates)] {
                    guard let record else { continue }
                    let name = "change \(change.changeId) \(column)"
                    guard let bytes = RecordHex.bytes(record.hex) else { throw RecordFixtureError("bad hex in \(name)") }
                    records.append((name, bytes, try record.values.map { try $0.databaseValue() }))
                }
            }
            return records
        }
    }
}

struct RecordFixtureError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension TursoVectorFixture.Value {
    func databaseValue() throws -> DatabaseValue {
        switch type {
        case "null":
            return .null
        case "integer":
            guard let value, let integer = Int64(value) else { throw RecordFixtureError("bad integer \(String(describing: value))") }
            return .integer(integer)
        case "real":
            guard let bits, let pattern = UInt64(bits, radix: 16) else { throw RecordFixtureError("bad real bits") }
            return .real(Double(bitPattern: pattern))
        case "text":
            // The UTF-8 hex is authoritative: it survives any JSON escaping of control characters.
            guard let utf8, let bytes = RecordHex.bytes(utf8), let text = String(validating: bytes, as: UTF8.self),
                text == value
            else { throw RecordFixtureError("bad text \(String(describing: value))") }
            return .text(text)
        case "blob":
            guard let value, let bytes = RecordHex.bytes(value) else { throw RecordFixtureError("bad blob") }
            return .blob(bytes)
        default:
            throw RecordFixtureError("unknown type \(type)")
        }
    }
}

@Suite("Records written by Turso")
struct RecordTursoVectorTests {
    @Test("every Turso record decodes to the values it stands for")
    func vectorsDecode() throws {
        let records = try TursoVectorFixture.load().records
        #expect(records.count > 150)
        for record in records {
            let decoded = try RecordDecoder.decode(record.bytes)
            #expect(recordIdentical(decoded, record.values), "\(record.name)")
        }
    }

    @Test("encoding the values gives back exactly Turso's bytes")
    func vectorsEncode() throws {
        for record in try TursoVectorFixture.load().records {
            let encoded = RecordEncoder.encode(record.values)
            #expect(encoded == record.bytes, "\(record.name): ours \(RecordHex.string(encoded))")
        }
    }

    @Test("Turso writes 0 and 1 as serial types 8 and 9, and headers over 127 bytes")
    func tursoEncodingChoices() throws {
        let records = try TursoVectorFixture.load().records
        let serialTypes = try records.flatMap { try RecordDecoder.serialTypes($0.bytes) }
        #expect(serialTypes.contains(.zero) && serialTypes.contains(.one))
        for record in records {
            let types = try RecordDecoder.serialTypes(record.bytes)
            for (value, serialType) in zip(record.values, types) {
                if case .integer(let integer) = value, integer == 0 || integer == 1 {
                    #expect(serialType.rawValue == 8 + UInt64(integer), "\(record.name)")
                }
            }
        }
        #expect(records.contains { $0.bytes[0] & 0x80 != 0 }, "some header size takes two bytes")
    }

    @Test("every truncated prefix of every Turso record throws")
    func truncatedPrefixes() throws {
        for record in try TursoVectorFixture.load().records {
            for length in 0..<record.bytes.count {
                if case .success = recordDecodeResult(Array(record.bytes[..<length])) {
                    Issue.record("\(record.name) cut to \(length) bytes decoded")
                }
            }
            #expect(throws: RecordFormatError.self, "\(record.name) with a byte appended") {
                try RecordDecoder.decode(record.bytes + [0])
            }
        }
    }

    @Test("Turso records with random bytes changed throw or decode, and never crash")
    func mutatedRecords() throws {
        var random = SeededRandom(seed: 0x5EED_0006)
        for record in try TursoVectorFixture.load().records where !record.bytes.isEmpty {
            for _ in 0..<20 {
                var bytes = record.bytes
                let changes = 1 + Int(random.next() % 3)
                for _ in 0..<changes {
                    // Mostly the header, where a changed byte reshapes everything after it.
                    let limit = random.next() % 4 == 0 ? bytes.count : min(bytes.count, 8)
                    bytes[Int(random.next() % UInt64(limit))] = UInt8(truncatingIfNeeded: random.next())
                }
                if case .failure(let error) = recordDecodeResult(bytes) {
                    #expect(error.offset >= 0 && error.offset <= bytes.count)
                }
            }
        }
    }

    @Test("the fixture records Turso's CDC schema and the layout of its change rows")
    func cdcFacts() throws {
        let fixture = try TursoVectorFixture.load()
        #expect(fixture.mismatches.isEmpty, "the capture script saw bytes and tables disagree")
        #expect(fixture.cdcPragma == "PRAGMA capture_data_changes_conn('full')")
        #expect(
            fixture.schema.tursoCdc
                == "CREATE TABLE turso_cdc (change_id INTEGER PRIMARY KEY AUTOINCREMENT, change_time INTEGER, "
                + "change_txn_id INTEGER, change_type INTEGER, table_name TEXT, id, \"before\" BLOB, \"after\" BLOB, "
                + "updates BLOB)")
        #expect(
            fixture.schema.tursoCdcVersion
                == "CREATE TABLE turso_cdc_version (table_name TEXT PRIMARY KEY, version TEXT NOT NULL)")
        #expect(fixture.schema.tursoCdcVersionRows == [["turso_cdc", "v2"]])

        var transactionStart: [Int64: Int64] = [:]
        for change in fixture.changes {
            transactionStart[change.changeTxnId] = min(transactionStart[change.changeTxnId] ?? .max, change.changeId)
            switch change.changeType {
            case 2:
                #expect(change.tableName == nil && change.before == nil && change.after == nil && change.updates == nil)
            case 0:
                let after = try #require(change.after, "update \(change.changeId) has an after image")
                let updates = try #require(change.updates, "update \(change.changeId) has an updates record")
                #expect(change.before != nil)
                // updates: C flags (0 or 1), then C values, NULL where the flag is 0.
                let values = try updates.values.map { try $0.databaseValue() }
                let columns = after.values.count
                #expect(values.count == 2 * columns, "change \(change.changeId)")
                for index in 0..<columns {
                    let flag = values[index]
                    #expect(flag == .integer(0) || flag == .integer(1))
                    if flag == .integer(0) { #expect(values[columns + index] == .null) }
                }
            case 1:
                #expect(change.updates == nil)
                // The INSERT half of an UPDATE that moves a row to a new rowid carries its image in
                // `before`, not `after` (Turso 0.8.3); every other insert has `after` only.
                #expect((change.after == nil) != (change.before == nil), "change \(change.changeId)")
            case -1:
                #expect(change.before != nil && change.after == nil && change.updates == nil)
            default:
                Issue.record("unknown change type \(change.changeType)")
            }
            // In a table with an INTEGER PRIMARY KEY, the key column holds the rowid, which is `id`.
            if change.tableName == "items", let image = change.after ?? change.before {
                #expect(try image.values[0].databaseValue() == change.id.databaseValue())
            }
        }
        // change_txn_id is the change_id of the first row of its transaction.
        #expect(transactionStart.allSatisfy { $0.key == $0.value })
        #expect(fixture.changes.contains { $0.changeType == 1 && $0.after == nil && $0.before != nil })
        #expect(Set(fixture.changes.compactMap(\.tableName)) == ["sqlite_schema", "items", "tags", "wide"])
        #expect(fixture.tables["wide"]?.count == 131)
    }
}
