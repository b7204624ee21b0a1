import BoutiqueSQLite
import Foundation

extension Array: QueryExpression, QueryRepresentable, QueryBindable where Element == UInt8 {
    public typealias QueryValue = [UInt8]
    public typealias QueryOutput = [UInt8]

    /// A blob (text reads as its UTF-8 bytes). NULL is an error.
    @inlinable
    public static func decode(from decoder: inout RowDecoder) throws(BoutiqueError) -> [UInt8] {
        switch decoder.currentStorageClass {
        case .null: throw decoder.failure(expected: "[UInt8]")
        case .text:
            let bytes = decoder.statement.textBytes(at: decoder.columnIndex)
            decoder.columnIndex += 1
            return bytes
        default:
            let bytes = decoder.statement.blob(at: decoder.columnIndex)
            decoder.columnIndex += 1
            return bytes
        }
    }

    @inlinable
    public static func encode(_ output: [UInt8]) -> DatabaseValue { .blob(output) }

    public static var sqlType: SQLType { .blob }
}

extension Data: QueryBindable {
    public static func decode(from decoder: inout RowDecoder) throws(BoutiqueError) -> Data {
        guard decoder.currentStorageClass != .null else { throw decoder.failure(expected: "Data") }
        let data = decoder.statement.withUnsafeBlob(at: decoder.columnIndex) { Data($0) }
        decoder.columnIndex += 1
        return data
    }

    public static func encode(_ output: Data) -> DatabaseValue { .blob(Array(output)) }

    public static var sqlType: SQLType { .blob }
}
