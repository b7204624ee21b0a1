// These run `boutique serve`, which needs the HTTP front end: they are compiled where the package has it.
#if BOUTIQUE_SYNC_HTTP
import BoutiqueTestSupport
import Foundation
import Testing

/// The README's sync walkthrough, run as a reader runs it: its shell blocks in order, in an empty
/// folder, with the built `boutique` first on the PATH. Only the port differs (8080 may be taken).
@Suite("README sync examples")
struct ReadmeSyncExamplesTests {
    /// The shell blocks of the README's "Serving sync over HTTP" section, in order.
    static func walkthrough() throws -> String {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("README.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        guard let start = text.range(of: "#### Serving sync over HTTP"),
            let end = text.range(of: "The same from Swift", range: start.upperBound..<text.endIndex)
        else { throw ChildProcessError("the README has no section \"Serving sync over HTTP\"") }
        var blocks: [Substring] = []
        var rest = text[start.upperBound..<end.lowerBound]
        while let open = rest.range(of: "```sh\n"), let close = rest.range(of: "```", range: open.upperBound..<rest.endIndex) {
            blocks.append(rest[open.upperBound..<close.lowerBound])
            rest = rest[close.upperBound...]
        }
        return blocks.joined(separator: "\n")
    }

    /// A TCP port on 127.0.0.1 that nothing listens on now.
    static func unusedPort() throws -> Int {
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketFD >= 0 else { throw ChildProcessError("no socket") }
        defer { close(socketFD) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socketFD, $0, length) == 0 && getsockname(socketFD, $0, &length) == 0 }
        }
        guard bound else { throw ChildProcessError("no port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    @Test func theWalkthroughRunsAsWritten() async throws {
        let walkthrough = try Self.walkthrough()
        #expect(walkthrough.contains("boutique serve") && walkthrough.contains("boutique share"))
        try await withTemporaryDirectory { directory in
            let bin = directory.appendingPathComponent("bin")
            try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(
                at: bin.appendingPathComponent("boutique"), withDestinationURL: ChildProcess.executable("boutique"))
            let work = directory.appendingPathComponent("work")
            try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
            // Stops the servers it started if a step fails.
            let script = "set -e\ntrap 'kill $(jobs -p) 2>/dev/null || true' EXIT\n"
                + walkthrough.replacingOccurrences(of: "8080", with: String(try Self.unusedPort()))
            let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
            let run = try await ChildProcess.run(
                executable: URL(fileURLWithPath: "/usr/bin/env"), ["PATH=\(bin.path):\(path)", "bash", "-c", script], in: work,
                timeout: .seconds(300))
            #expect(run.status == 0, "\(run.output)\n\(run.errors)")
            #expect(run.output.contains("pushed 1 change, pulled 0 changes; up to date"), "\(run.output)")
            #expect(
                run.output.contains("ana owner\nbob viewer (not connected yet)\nana owner\nbob viewer\n"),
                "shared with bob before he connected, then listed by him: \(run.output)")
            #expect(run.output.hasSuffix("ana owner\nana owner\n"), "unshared, then listed by the operator: \(run.output)")
        }
    }
}
#endif
