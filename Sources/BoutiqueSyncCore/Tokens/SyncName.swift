import Foundation

/// The rule for the names a token carries and the user ids sharing names: tenants and users.
///
/// ```swift
/// if let problem = SyncName.problem(in: user, label: "user") { throw BoutiqueError.invalidArgument(problem) }
/// if SyncName.same(member.user, user) { … }
/// ```
///
/// A name is 1 to ``maximumBytes`` bytes of UTF-8 in Unicode Normalization Form C, without control
/// characters (newlines included) or line and paragraph separators. The server stores and indexes
/// names as bytes, so two spellings of one text ("José" with a precomposed é, or with an e and a
/// combining accent) would be two users to its reads and one to Swift's `==`. Rather than pick one of
/// the two meanings silently, a name not in NFC is refused wherever it enters (minting a token,
/// verifying one, naming a member): the app that issues tokens decides whether its two spellings are
/// one account, and every name the server holds has one spelling. After that check names are compared
/// as bytes (``same(_:_:)``), never with `==`.
package enum SyncName {
    /// The most UTF-8 bytes of a tenant or user name.
    package static let maximumBytes = 256

    /// Why `name` cannot be a tenant or user name (`label` says which), `nil` when it can.
    package static func problem(in name: String, label: String) -> String? {
        let bytes = name.utf8.count
        guard bytes > 0 else { return "a \(label) name is empty" }
        guard bytes <= maximumBytes else {
            return "a \(label) name of \(bytes) bytes is longer than the limit of \(maximumBytes) bytes"
        }
        if let scalar = name.unicodeScalars.first(where: isRefused) {
            return "a \(label) name holds the control character U+\(String(scalar.value, radix: 16, uppercase: true)); names are one line of text"
        }
        guard isNFC(name) else {
            return "the \(label) name '\(name)' is not in Unicode Normalization Form C (NFC); normalize it (precomposedStringWithCanonicalMapping) where it is made"
        }
        return nil
    }

    /// Whether `name` is its own NFC form, byte for byte (`==` would compare canonical equivalents
    /// as equal, which every spelling is of its NFC).
    package static func isNFC(_ name: String) -> Bool {
        // ASCII is NFC: no need to build the normalized copy.
        if name.utf8.allSatisfy({ $0 < 0x80 }) { return true }
        return name.utf8.elementsEqual(name.precomposedStringWithCanonicalMapping.utf8)
    }

    /// Whether two names are the same name: the same bytes.
    package static func same<A: StringProtocol, B: StringProtocol>(_ a: A, _ b: B) -> Bool {
        a.utf8.elementsEqual(b.utf8)
    }

    private static func isRefused(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator: true
        default: false
        }
    }
}
