import Foundation

#if canImport(CryptoKit)
import CryptoKit
#else
import CCrypto
#endif

/// SHA-256 fed in pieces, from CryptoKit on Apple platforms and OpenSSL's libcrypto elsewhere: it names
/// attachments by their bytes while a file streams through a buffer of one chunk, and the sync server
/// hashes its secrets and tenant names with it.
///
/// ```swift
/// guard let hasher = SHA256Hasher() else { throw ... }
/// hasher.update(chunk)                    // as often as there are chunks
/// let digest = hasher.finalize()          // 32 bytes, or nil when libcrypto failed
/// ```
package final class SHA256Hasher {
    #if canImport(CryptoKit)
    private var hash = SHA256()
    #else
    private let context: OpaquePointer
    private var failed = false
    #endif

    /// A hasher that has seen no bytes; nil when libcrypto cannot make one (out of memory).
    package init?() {
        #if !canImport(CryptoKit)
        guard let context = EVP_MD_CTX_new() else { return nil }
        guard EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else {
            EVP_MD_CTX_free(context)
            return nil
        }
        self.context = context
        #endif
    }

    deinit {
        #if !canImport(CryptoKit)
        EVP_MD_CTX_free(context)
        #endif
    }

    /// Adds `bytes` to what has been hashed.
    package func update(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return }
        #if canImport(CryptoKit)
        hash.update(bufferPointer: bytes)
        #else
        if EVP_DigestUpdate(context, bytes.baseAddress, bytes.count) != 1 { failed = true }
        #endif
    }

    /// Adds `bytes` to what has been hashed.
    package func update(_ bytes: some ContiguousBytes) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The 32-byte digest of everything added; nil when libcrypto failed. Call it once.
    package func finalize() -> [UInt8]? {
        #if canImport(CryptoKit)
        return Array(hash.finalize())
        #else
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        guard !failed, EVP_DigestFinal_ex(context, &digest, &length) == 1, length == 32 else { return nil }
        return digest
        #endif
    }

    /// The SHA-256 of `bytes`, or nil when libcrypto failed.
    package static func digest(of bytes: some ContiguousBytes) -> [UInt8]? {
        guard let hasher = SHA256Hasher() else { return nil }
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// `digest` as lowercase hexadecimal text.
    package static func hex(_ digest: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(digest.count * 2)
        for byte in digest {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
