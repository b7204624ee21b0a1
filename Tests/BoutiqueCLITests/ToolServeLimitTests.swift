// These run `boutique serve`, which needs the HTTP front end: they are compiled where the package has it.
#if BOUTIQUE_SYNC_HTTP
import BoutiqueTestSupport
import Foundation
import Testing

/// `boutique serve`'s connection limits: its flags, and the open-file limit it raises to hold them.
@Suite("boutique serve limits")
struct ToolServeLimitTests {
    /// The soft and hard limits on open files of process `pid`, from /proc.
    static func openFileLimits(of pid: Int32) throws -> (soft: String, hard: String)? {
        let limits = try String(contentsOfFile: "/proc/\(pid)/limits", encoding: .utf8)
        guard let line = limits.split(separator: "\n").first(where: { $0.hasPrefix("Max open files") }) else { return nil }
        let fields = line.dropFirst("Max open files".count).split(separator: " ")
        return fields.count >= 2 ? (String(fields[0]), String(fields[1])) : nil
    }

    @Test func serveRaisesItsOpenFileLimitToTheHardLimit() async throws {
        try await withTemporaryDirectory { directory in
            let made = try await ChildProcess.run(
                executable: URL(fileURLWithPath: "/bin/sh"), ["-c", "(umask 077; openssl rand -base64 32 > secret)"], in: directory)
            #expect(made.status == 0)
            // Started with a soft limit of 256, under whatever hard limit the tests have.
            let server = try ChildProcess(
                executable: URL(fileURLWithPath: "/bin/sh"),
                ["-c", #"ulimit -Sn 256 && exec "$0" serve --port 0 --secret-file secret --store server.db"#,
                 ChildProcess.executable("boutique").path],
                in: directory)
            _ = try await server.line(startingWith: "listening on ")
            let limits = try #require(try Self.openFileLimits(of: server.pid))
            #expect(limits.soft == limits.hard, "soft \(limits.soft), hard \(limits.hard)")
            #expect(limits.soft != "256")
            server.send(SIGTERM)
            #expect(await server.wait().status == 0)
        }
    }

    @Test func serveRefusesLimitsThatAreNotPositiveNumbersOrDurations() async throws {
        try await withTemporaryDirectory { directory in
            let serve = ["serve", "--port", "0", "--secret-file", "secret", "--store", "server.db"]
            for flags in [
                ["--connections-per-address", "0"], ["--connection-limit", "many"], ["--max-body-bytes", "-1"],
                ["--request-deadline", "soon"], ["--max-wait", "0"], ["--response-deadline", "later"],
                ["--unfinished-request-limit", "0"], ["--unfinished-requests-per-address", "none"],
                ["--max-queued-response-bytes", "-5"],
            ] {
                let refused = try await ToolProcess.run(serve + flags, in: directory)
                #expect(refused.status == 2 && refused.errorOutput.contains(flags[0]), "\(flags): \(refused.errorOutput)")
            }
        }
    }
}
#endif
