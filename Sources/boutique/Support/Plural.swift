import BoutiqueDB

/// Counted nouns as people write them: "1 transaction", "2 transactions", "0 rows".
enum Plural {
    static func count(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }

    /// A count read from the database (`count(*)`); anything but an integer counts as none.
    static func count(_ value: DatabaseValue?, _ noun: String) -> String {
        if case .integer(let count)? = value { return Self.count(Int(count), noun) }
        return Self.count(0, noun)
    }
}
