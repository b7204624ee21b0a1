import BoutiqueSyncServer
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A token has one spelling: variants of a genuine token's text — a padding tail, a flipped unused
/// bit, bytes after it — are refused, not taken for the same token. And a signer's secret is neither
/// guessable nor readable by others.
@Suite struct SyncTokenSpellingTests {
    static let signer = try! SyncTokenSigner(secret: Array("the secret of the token spelling tests!".utf8))
    static let now = Date(timeIntervalSince1970: 1_900_000_000)

    static func genuine() throws -> String {
        try signer.token(tenant: "acme", user: "ana", expiresAt: Date(timeIntervalSince1970: 2_000_000_000))
    }

    /// `text` with the lowest bit of its last base64url digit flipped: a digit whose unused low bits
    /// differ, so a lenient decoder reads the same bytes from it.
    static func flippingUnusedBit(_ text: Substring) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        let last = text.last!
        let index = alphabet.firstIndex(of: last)!
        return String(text.dropLast()) + String(alphabet[index ^ 1])
    }

    @Test func onlyTheExactSpellingOfATokenIsAccepted() throws {
        let token = try Self.genuine()
        #expect(try Self.signer.verify(token, at: Self.now).user == "ana")
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        // 32 signature bytes are 43 digits, whose last carries 2 unused bits; the claims' JSON leaves
        // unused bits too unless its length is a multiple of 3.
        #expect(parts[2].count == 43)
        var variants: [(String, String)] = [
            ("padding", token + "="),
            ("padding and junk", token + "=JUNK"),
            ("trailing junk", token + "JUNK"),
            ("NUL and junk", token + "\u{0}junk"),
            ("NUL", token + "\u{0}"),
            ("unused bit of the signature", "\(parts[0]).\(parts[1]).\(Self.flippingUnusedBit(parts[2]))"),
            ("padded claims", "\(parts[0]).\(parts[1])=.\(parts[2])"),
            ("standard base64 digits", token.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")),
        ]
        if parts[1].count % 4 != 0 {
            variants.append(("unused bit of the claims", "\(parts[0]).\(Self.flippingUnusedBit(parts[1])).\(parts[2])"))
        }
        for (label, variant) in variants where variant != token {
            #expect(throws: BoutiqueError.self, "\(label)") { try Self.signer.verify(variant, at: Self.now) }
        }
    }

    @Test(arguments: [
        ("16 bytes", String(repeating: "a", count: 16)),
        ("32 of one byte", String(repeating: "a", count: 32)),
        ("64 of two bytes", String(repeating: "ab", count: 32)),
        ("a block repeated", String(repeating: "0123456789abcdef", count: 2)),
        ("a longer block repeated", String(repeating: "Zq8#mW2!vR5@", count: 4)),
        ("few distinct bytes", "aaaaaaaabbbbbbbbccccccccdddddddd"),
    ])
    func guessableSecretsAreRefused(label: String, secret: String) {
        #expect(throws: BoutiqueError.self, "\(label)") { try SyncTokenSigner(secret: Array(secret.utf8)) }
    }

    @Test func randomSecretsInEveryUsualSpellingAreAccepted() throws {
        for _ in 0..<200 {
            let bytes = (0..<32).map { _ in UInt8.random(in: 0...255) }
            _ = try SyncTokenSigner(secret: bytes)
            _ = try SyncTokenSigner(secret: Array(Data(bytes).base64EncodedString().utf8))
            _ = try SyncTokenSigner(secret: Array(bytes.map { String(format: "%02x", $0) }.joined().utf8))
        }
    }

    @Test func aSecretFileOthersMayReadOrWriteIsRefused() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("secret-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("secret")
        try Data((Data((0..<32).map { _ in UInt8.random(in: 0...255) }).base64EncodedString() + "\n").utf8).write(to: file)
        for mode in [0o644, 0o640, 0o604, 0o620, 0o602, 0o666] {
            try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: file.path)
            let error = #expect(throws: BoutiqueError.self) { try SyncTokenSigner(secretFile: file) }
            #expect("\(String(describing: error))".contains("chmod 600 \(file.path)"), "mode \(String(mode, radix: 8)): \(String(describing: error))")
            #expect("\(String(describing: error))".contains(String(mode, radix: 8)))
        }
        for mode in [0o600, 0o400] {
            try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: file.path)
            _ = try SyncTokenSigner(secretFile: file)
        }
    }
}
