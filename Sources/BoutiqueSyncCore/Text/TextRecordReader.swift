/// Reads the values of a collaborative text's record (``CollaborativeText/record()``,
/// ``TextOperation/record()``) one by one, turning anything unexpected into a decoding error instead
/// of a trap: the bytes come from files and other devices.
struct TextRecordReader {
    let values: [DatabaseValue]
    let what: String
    private(set) var index = 0

    /// The values of `bytes`, or a decoding error naming `what` was expected.
    init(_ bytes: [UInt8], what: String) throws(BoutiqueError) {
        do { values = try RecordDecoder.decode(bytes) } catch {
            throw Self.malformed(what, String(describing: error))
        }
        self.what = what
    }

    var isAtEnd: Bool { index == values.count }

    mutating func next() throws(BoutiqueError) -> DatabaseValue {
        guard index < values.count else { throw malformed("\(values.count) values, more expected") }
        defer { index += 1 }
        return values[index]
    }

    /// An integer in `range`.
    mutating func integer(in range: ClosedRange<Int>, _ field: String) throws(BoutiqueError) -> Int {
        let value = try next()
        guard case .integer(let raw) = value, raw >= Int64(range.lowerBound), raw <= Int64(range.upperBound) else {
            throw malformed("\(field) \(value)")
        }
        return Int(raw)
    }

    mutating func text(_ field: String) throws(BoutiqueError) -> String {
        let value = try next()
        guard case .text(let text) = value else { throw malformed("\(field) \(value)") }
        return text
    }

    func malformed(_ found: String) -> BoutiqueError { Self.malformed(what, found) }

    static func malformed(_ what: String, _ found: String) -> BoutiqueError {
        .decoding(.init(table: "collaborative text", column: "record", expectedType: what, found: found))
    }
}
