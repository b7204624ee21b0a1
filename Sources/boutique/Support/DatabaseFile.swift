import BoutiqueDB
import Foundation

/// Opening the database files the commands are given.
enum DatabaseFile {
    /// A read-only connection to an existing file: for commands that only look.
    static func openForReading(_ path: String) throws -> Connection {
        guard FileManager.default.fileExists(atPath: path) else { throw UsageError("no such file: \(path)") }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw UsageError("\(path) is a directory, not a database file")
        }
        return try Connection(path: path, flags: [.readOnly, .noMutex])
    }

    /// An existing file opened as a BoutiqueDB database shared with other processes.
    @MainActor
    static func openShared(_ path: String) async throws -> BoutiqueDB {
        _ = try openForReading(path)  // refuse missing files and directories before anything is created
        return try await BoutiqueDB.open(url: URL(fileURLWithPath: path), options: .init(multiProcess: true))
    }
}
