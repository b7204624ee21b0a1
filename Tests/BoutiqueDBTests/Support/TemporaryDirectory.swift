import Foundation

/// A fresh folder for one test's files, removed when the value goes away.
final class TemporaryDirectory: Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("boutique-tests-\(UUID().uuidString.lowercased())", isDirectory: true)
        try FileManager.default.createDirectory(
            at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
    }

    /// A file URL inside the folder.
    func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    deinit { try? FileManager.default.removeItem(at: url) }
}

/// The bytes of a file, or `nil` when it does not exist.
func contents(of url: URL) -> Data? { FileManager.default.contents(atPath: url.path) }
