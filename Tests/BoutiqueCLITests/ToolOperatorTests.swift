import Foundation
import Testing

/// The operator's commands on a sync server's store, `boutique owner` and `boutique members --store` (or `--store-dir`):
/// their usage, and a store that is not there (which they must not create). What they do to a store
/// is tested with a running server in the sync tests (RulesMismatchProcessTests).
@Suite struct ToolOperatorTests {
    @Test func ownerAndOperatorMembersSayWhatIsMissingAndCreateNoStore() async throws {
        try await withTemporaryDirectory { directory in
            let listed = try await ToolProcess.run(["--help"], in: directory)
            #expect(listed.output.contains("  owner "), "\(listed.output)")
            let help = try await ToolProcess.run(["members", "--help"], in: directory)
            #expect(help.output.contains("boutique members (--store FILE | --store-dir DIR | --postgres URL | --postgres-url-file FILE) [--tenant ID]"))

            let row = ["--table", "remindersList", "--key", "L1"]
            let cases: [([String], String)] = [
                (["owner"] + row + ["--user", "ana"], "--store FILE, --store-dir DIR, --postgres URL, --postgres-url-file FILE"),
                (["owner", "--store", "sync.db", "--key", "L1", "--user", "ana"], "--table is required"),
                (["owner", "--store", "sync.db"] + row, "--user U is required"),
                (["owner", "--store", "sync.db", "--postgres", "postgresql://db/sync"] + row + ["--user", "ana"], "name two stores"),
                (["owner", "--store", "sync.db"] + row + ["--user", "ana"], "no such store: sync.db"),
                (["members", "--store", "sync.db"] + row, "no such store: sync.db"),
                (["members"] + row, "--store FILE, --store-dir DIR, --postgres URL, --postgres-url-file FILE"),
                (["owner", "--store-dir", "sync"] + row + ["--user", "ana"], "no such store: sync"),
                (["members", "--store-dir", "sync"] + row, "no such store: sync"),
                (["members", "--store", "sync.db", "--store-dir", "sync"] + row, "--store and --store-dir name two stores"),
                (["owner", "--store-dir", "sync", "--postgres", "postgresql://db/sync"] + row + ["--user", "ana"],
                 "--store-dir and --postgres name two stores"),
            ]
            for (arguments, message) in cases {
                let result = try await ToolProcess.run(arguments, in: directory, environment: ["BOUTIQUE_POSTGRES_URL": ""])
                #expect(result.status == 2, "\(arguments): \(result.errorOutput)")
                #expect(result.errorOutput.contains(message), "\(arguments): \(result.errorOutput)")
            }
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("sync.db").path))
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("sync").path))
        }
    }
}
