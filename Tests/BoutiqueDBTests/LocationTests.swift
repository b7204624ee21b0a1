@testable import BoutiqueDB
import Foundation
import Testing

/// Where databases live.
@Suite struct LocationTests {
    @Test func applicationSupportURLCreatesTheAppFolder() throws {
        let url = try BoutiqueDB.applicationSupportURL(filename: "location-test.db")
        #expect(url.lastPathComponent == "location-test.db")
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: url.deletingLastPathComponent().path, isDirectory: &isDirectory))
        #expect(isDirectory.boolValue)
        #if os(Linux)
        let dataHome = ProcessInfo.processInfo.environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share").path
        #expect(url.path.hasPrefix(dataHome + "/"))
        #expect(url.deletingLastPathComponent().lastPathComponent == StandardDirectories.current.applicationName)
        #endif
    }

    @Test func linuxFoldersFollowXDG() {
        let home = URL(fileURLWithPath: "/home/ada")
        let explicit = StandardDirectories(
            environment: ["XDG_DATA_HOME": "/data", "XDG_DOCUMENTS_DIR": "/docs"], homeDirectory: home,
            applicationName: "com.example.notes")
        #expect(explicit.linuxApplicationSupport.path == "/data/com.example.notes")
        #expect(explicit.linuxDocuments.path == "/docs")
        #expect(explicit.linuxSharedContainer(groupIdentifier: "group.com.example").path == "/data/group.com.example")

        let fallback = StandardDirectories(
            environment: ["XDG_DATA_HOME": "relative/ignored"], homeDirectory: home, applicationName: "notes")
        #expect(fallback.linuxApplicationSupport.path == "/home/ada/.local/share/notes")
        #expect(fallback.linuxDocuments.path == "/home/ada/Documents")
        #expect(StandardDirectories.safeFolderName("a/b") == "a_b")
    }

    @Test func sharedContainerURLIsAFolderPerGroup() throws {
        let group = "group.boutique-tests.\(UUID().uuidString.lowercased())"
        let url = try BoutiqueDB.sharedContainerURL(groupIdentifier: group, filename: "shared.db")
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        #expect(url.lastPathComponent == "shared.db")
        #expect(url.deletingLastPathComponent().lastPathComponent == group)
        #expect(FileManager.default.fileExists(atPath: url.deletingLastPathComponent().path))
    }

    /// A folder that cannot be made (a file stands where a parent folder should be) is a file-system
    /// error naming the folder, and nothing is created.
    @Test func aFolderThatCannotBeCreatedIsAFileSystemError() throws {
        let blocker = FileManager.default.temporaryDirectory.appendingPathComponent("boutique-blocker-\(UUID().uuidString)")
        try Data("not a folder".utf8).write(to: blocker)
        defer { try? FileManager.default.removeItem(at: blocker) }
        let folder = blocker.appendingPathComponent("app", isDirectory: true)
        #expect {
            _ = try BoutiqueDB.fileURL("notes.db", in: folder)
        } throws: { error in
            guard case .fileSystem(let path, let message)? = error as? BoutiqueError else { return false }
            return path == folder.path && message.hasPrefix("cannot create the folder")
        }
        #expect(try Data(contentsOf: blocker) == Data("not a folder".utf8))
    }

    @Test func fileNamesMustBeNames() {
        #expect(throws: BoutiqueError.self) { try BoutiqueDB.applicationSupportURL(filename: "../escape.db") }
        #expect(throws: BoutiqueError.self) { try BoutiqueDB.applicationSupportURL(filename: "") }
        #expect(throws: BoutiqueError.self) { try BoutiqueDB.sharedContainerURL(groupIdentifier: "", filename: "a.db") }
    }

    @Test func everyInMemoryURLIsAFreshIsolatedDatabaseRemovedOnClose() async throws {
        let firstURL = BoutiqueDB.inMemoryURL()
        let secondURL = BoutiqueDB.inMemoryURL()
        #expect(firstURL != secondURL)
        let first = try await DatabaseActor.open(url: firstURL, migrations: CounterMigrations.plan)
        let second = try await DatabaseActor.open(url: secondURL, migrations: CounterMigrations.plan)
        try await first.write { conn in try conn.execute("INSERT INTO counter(label) VALUES ('first')") }
        #expect(try await first.read { conn in try conn.count("counter") } == 1)
        #expect(try await second.read { conn in try conn.count("counter") } == 0)
        #expect(FileManager.default.fileExists(atPath: firstURL.path))
        await first.close()
        await second.close()
        for suffix in ["", "-wal", "-shm"] {
            #expect(!FileManager.default.fileExists(atPath: firstURL.path + suffix))
        }
    }

    @Test func anInMemoryDatabaseOpenedTwiceIsSharedUntilTheLastClose() async throws {
        let url = BoutiqueDB.inMemoryURL()
        let first = try await DatabaseActor.open(url: url, migrations: CounterMigrations.plan)
        let second = try await DatabaseActor.open(url: url, migrations: CounterMigrations.plan)
        try await first.write { conn in try conn.execute("INSERT INTO counter(label) VALUES ('shared')") }
        await first.close()
        #expect(try await second.read { conn in try conn.count("counter") } == 1)
        await second.close()
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }
}
