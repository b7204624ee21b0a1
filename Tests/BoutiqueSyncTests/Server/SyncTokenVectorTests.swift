import BoutiqueSyncServer
import Foundation
import Testing

/// Known answers for the token signatures, the same on every platform: CryptoKit computes them on Apple
/// platforms and OpenSSL's libcrypto elsewhere, and a token signed by one must verify on the other.
@Suite struct SyncTokenVectorTests {
    static func bytes(_ hex: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return bytes
    }

    /// RFC 4231's test cases 1, 2 and 6 (a key shorter than, and one longer than, SHA-256's block).
    @Test(arguments: [
        (String(repeating: "0b", count: 20), Array("Hi There".utf8),
         "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
        ("4a656665", Array("what do ya want for nothing?".utf8),
         "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        (String(repeating: "aa", count: 131), Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
         "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
    ])
    func hmacSHA256MatchesRFC4231(key: String, message: [UInt8], code: String) throws {
        #expect(try HMACSHA256.authenticationCode(key: Self.bytes(key), message: message) == Self.bytes(code))
        #expect(try HMACSHA256.isValid(Self.bytes(code), key: Self.bytes(key), message: message))
        var altered = Self.bytes(code)
        altered[31] ^= 1
        #expect(try !HMACSHA256.isValid(altered, key: Self.bytes(key), message: message))
        #expect(try !HMACSHA256.isValid(Array(altered.prefix(16)), key: Self.bytes(key), message: message))
    }

    static let secret = Array("the secret of the token test vectors".utf8)
    /// Signed independently of this package (Python's hmac module) for tenant acme, user ana, until
    /// 2033-05-18T03:33:20Z.
    static let token =
        "bq1.eyJ0ZW5hbnQiOiJhY21lIiwidXNlciI6ImFuYSIsImV4cGlyZXNBdCI6MjAwMDAwMDAwMH0.9O0yZdBL_ppp_6--sz-KlBDY8xXjBBp8gJRRHt5v2DM"

    @Test func aKnownTokenVerifiesTheSameEverywhere() throws {
        let signer = try SyncTokenSigner(secret: Self.secret)
        let expiry = Date(timeIntervalSince1970: 2_000_000_000)
        // A token of the same claims verifies to them (its bytes may differ: JSON does not fix the order
        // of the claims' keys).
        let signed = try signer.token(tenant: "acme", user: "ana", expiresAt: expiry)
        #expect(try signer.verify(signed, at: Date(timeIntervalSince1970: 1_900_000_000)).tenant == "acme")
        let claims = try signer.verify(Self.token, at: Date(timeIntervalSince1970: 1_900_000_000))
        #expect(claims == SyncToken(tenant: "acme", user: "ana", expiresAt: 2_000_000_000))
        let other = try SyncTokenSigner(secret: Array("another secret, sixteen bytes or more".utf8))
        #expect(throws: BoutiqueError.self) { try other.verify(Self.token, at: Date(timeIntervalSince1970: 1_900_000_000)) }
        #expect(throws: BoutiqueError.self) { try signer.verify(Self.token, at: expiry) }
    }
}
