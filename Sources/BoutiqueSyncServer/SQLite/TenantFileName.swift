import BoutiqueSQLite
import Foundation

/// The name of a tenant's file in a ``SQLiteTenantFilesStore``'s directory: the hex SHA-256 of the
/// tenant's name, never the name's own text.
///
/// ```swift
/// let name = try TenantFileName.forTenant("../acme")   // "5c0f…e1.db": 64 hex digits and ".db"
/// try TenantFileName.check(name)                        // what the registry gives back is checked too
/// ```
///
/// A tenant's name is whatever its tokens say (up to 256 bytes): slashes, `..`, NUL, names that only a
/// case-insensitive file system confuses. A digest of its bytes is a file name on every system, the same
/// in every process that opens the directory (a server and an operator's command agree without talking),
/// and tells nothing of the name to someone who lists the directory.
enum TenantFileName {
    /// The file name for `tenant`: 64 lowercase hex digits of its UTF-8 bytes' SHA-256, then `.db`.
    static func forTenant(_ tenant: String) throws -> String {
        try SHA256Digest.of(Array(tenant.utf8)).map { String(format: "%02x", $0) }.joined() + ".db"
    }

    /// Refuses a name that is not one ``forTenant(_:)`` makes: the registry is a file, and a name read
    /// back from it must not lead out of the directory whatever was written there.
    ///
    /// - Throws: ``/BoutiqueDB/BoutiqueError/invalidArgument(_:)`` naming the name.
    static func check(_ name: String) throws {
        let digits = name.utf8.dropLast(3)
        guard name.utf8.count == 67, name.hasSuffix(".db"),
            digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) })
        else {
            throw BoutiqueError.invalidArgument("the tenant registry names the file '\(name.prefix(80))', which is not a tenant file's name")
        }
    }
}
