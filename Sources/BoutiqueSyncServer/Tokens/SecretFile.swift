import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading a file that holds a secret (the token secret, a database URL with its password, a bearer
/// token), refusing one that other users of the machine can read or change, the way ssh refuses such a
/// private key: a secret others can read is no longer a secret, and one others can write lets them
/// choose it.
///
/// ```swift
/// let secret = try SecretFile.read(URL(fileURLWithPath: "secret"), what: "token secret")
/// ```
package enum SecretFile {
    /// The largest secret file read: secrets are short, and a longer file is a mistake.
    package static let maximumBytes = 64 * 1024

    /// The file's bytes, without surrounding whitespace (a trailing newline from `echo` or `openssl`).
    ///
    /// - Throws: ``/BoutiqueDB/BoutiqueError/invalidArgument(_:)`` when the file cannot be read, or
    ///   when its group or others may read or write it (saying its mode and the `chmod 600` to run).
    package static func read(_ file: URL, what: String) throws -> [UInt8] {
        let path = file.path
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw BoutiqueError.invalidArgument("cannot read the \(what) file \(path): \(String(cString: strerror(errno)))")
        }
        guard status.st_size <= maximumBytes else {
            throw BoutiqueError.invalidArgument("the \(what) file \(path) is larger than \(maximumBytes / 1024) KB; is it the right file?")
        }
        let permissions = UInt32(status.st_mode) & 0o777
        guard permissions & 0o077 == 0 else {
            throw BoutiqueError.invalidArgument(
                "the \(what) file \(path) has mode \(String(permissions, radix: 8)), so other users can "
                    + "\(permissions & 0o044 != 0 ? "read" : "change") it; make it readable by its owner only: chmod 600 \(path)")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw BoutiqueError.invalidArgument("cannot read the \(what) file \(path)")
        }
        var bytes = [UInt8](data)
        while let last = bytes.last, isWhitespace(last) { bytes.removeLast() }
        while let first = bytes.first, isWhitespace(first) { bytes.removeFirst() }
        return bytes
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\t")
    }
}
