import BoutiqueTestSupport
import Foundation
import Testing

/// `boutique serve --retain DURATION`: how long a device may stay away and still resume.
@Suite("boutique serve --retain")
struct ServeRetentionTests {
    static let secret = "a secret for the serve test, long enough\n"

    /// The secret, readable by its owner only, as `serve` requires.
    static func writeSecret(in directory: URL) throws {
        let file = directory.appendingPathComponent("secret")
        try Data(secret.utf8).write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
    }

    @Test(arguments: ["5x", "0d", "-3h", "12 h", "d", "", "1.5h", "99999999999999999w"])
    func aRetentionThatIsNotADurationIsAUsageError(_ value: String) async throws {
        try await withTemporaryDirectory { directory in
            try Self.writeSecret(in: directory)
            let serve = try await ToolProcess.run(
                ["serve", "--port", "0", "--store", "sync.db", "--secret-file", "secret", "--retain", value], in: directory)
            #expect(serve.status == 2, "\(serve.errorOutput)")
            #expect(
                serve.errorOutput.contains("--retain takes a duration such as 90s, 15m, 12h, 30d or 2w, not '\(value)'")
                    || serve.errorOutput.contains("--retain \(value) is too long"), "\(serve.errorOutput)")
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("sync.db").path), "nothing was created")
        }
    }

    @Test func aRetentionWithoutAValueIsAUsageError() async throws {
        try await withTemporaryDirectory { directory in
            let serve = try await ToolProcess.run(["serve", "--port", "0", "--store", "sync.db", "--secret-file", "secret", "--retain"], in: directory)
            #expect(serve.status == 2)
            #expect(serve.errorOutput.contains("--retain needs a value"), "\(serve.errorOutput)")
        }
    }

    @Test func theHelpSaysWhatRetentionDoesAndItsDefault() async throws {
        try await withTemporaryDirectory { directory in
            let help = try await ToolProcess.run(["serve", "--help"], in: directory)
            #expect(help.status == 0)
            #expect(help.output.contains("--retain DURATION"))
            #expect(help.output.contains("default 30d"))
            #expect(help.output.contains("--housekeeping-interval DURATION (default 1h)"))
        }
    }

    @Test(arguments: ["0", "5x", "-1s"])
    func aHousekeepingIntervalThatIsNotADurationIsAUsageError(_ value: String) async throws {
        try await withTemporaryDirectory { directory in
            try Self.writeSecret(in: directory)
            let serve = try await ToolProcess.run(
                ["serve", "--port", "0", "--store", "sync.db", "--secret-file", "secret", "--housekeeping-interval", value], in: directory)
            #expect(serve.status == 2, "\(serve.errorOutput)")
            #expect(serve.errorOutput.contains("--housekeeping-interval takes a duration such as 90s"), "\(serve.errorOutput)")
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("sync.db").path), "nothing was created")
        }
    }

    #if BOUTIQUE_SYNC_HTTP
    @Test(arguments: ["30d", "12h", "90m", "3600s", "2w", "600"])
    func aServerStartsWithARetention(_ value: String) async throws {
        try await withTemporaryDirectory { directory in
            try Self.writeSecret(in: directory)
            let serve = try ToolProcess.start(
                ["serve", "--port", "0", "--store", "sync.db", "--secret-file", "secret", "--retain", value], in: directory)
            let line = try await serve.process.line(startingWith: "listening on ", timeout: .seconds(60))
            #expect(line.hasPrefix("listening on http://127.0.0.1:"))
            serve.process.send(SIGTERM)
            let exit = await serve.finish()
            #expect(exit.status == 0, "\(exit.errorOutput)")
        }
    }
    #endif
}
