import BoutiqueTestSupport
import Foundation
import Testing

/// The built plugin executable, spoken to as the compiler speaks to it: 8-byte little-endian lengths,
/// then JSON.
@Suite struct PluginProtocolTests {
    struct NotFound: Error, CustomStringConvertible {
        let searched: [String]
        var description: String { "the BoutiqueMacros-tool executable was not found in \(searched)" }
    }

    /// The plugin, built beside the test bundle (on Linux the bundle is an executable in the build
    /// folder; on macOS it is an `.xctest` folder inside it).
    static func pluginURL() throws -> URL {
        let name = "BoutiqueMacros-tool"
        let bundle = Bundle.main.bundleURL
        var candidates = [bundle.appendingPathComponent(name), bundle.deletingLastPathComponent().appendingPathComponent(name)]
        for testBundle in Bundle.allBundles where testBundle.bundleURL.pathExtension == "xctest" {
            candidates.append(testBundle.bundleURL.deletingLastPathComponent().appendingPathComponent(name))
        }
        if let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) { return found }
        throw NotFound(searched: candidates.map(\.path))
    }

    /// Runs the plugin with `input` on its standard input: its exit status and standard error.
    static func run(input: [UInt8]) async throws -> (status: Int32, errors: String) {
        let exit = try await ChildProcess.run(executable: pluginURL(), [], input: Data(input))
        return (exit.status, exit.errors)
    }

    /// Whether the plugin speaks through its own message connection, as it does when built against the
    /// toolchain's SwiftSyntax. Built against the swift-syntax package (Xcode), its entry point is that
    /// package's `CompilerPlugin`, whose connection stops on broken input too, with messages of its own
    /// ("read(2) reached end-of-file"), and traps on a length past `Int`'s range.
    static let hasOwnConnection: Bool = {
        #if BOUTIQUE_TOOLCHAIN_SWIFT_SYNTAX
        return true
        #else
        return false
        #endif
    }()

    @Test func aClosedPipeStopsThePluginQuietly() async throws {
        let result = try await Self.run(input: [])
        #expect(result.status == 0)
        #expect(result.errors.isEmpty)
    }

    /// An empty message (a length of zero) stops it too, rather than failing as bad JSON.
    @Test func anEmptyMessageStopsThePluginQuietly() async throws {
        let result = try await Self.run(input: Array(repeating: 0, count: 8))
        #expect(result.status == 0)
        #expect(result.errors.isEmpty)
    }

    /// A length no message can have is an error the plugin's own connection reports, not a crash.
    @Test func anImpossibleLengthIsAnError() async throws {
        let result = try await Self.run(input: Array(repeating: 0xFF, count: 8))
        #expect(result.status != 0)
        if Self.hasOwnConnection {
            #expect(result.errors.contains("message of 18446744073709551615 bytes"))
        }
    }

    @Test func aMessageCutShortIsAnError() async throws {
        var input: [UInt8] = [10, 0, 0, 0, 0, 0, 0, 0]
        input += Array("{\"a\"".utf8)
        let result = try await Self.run(input: input)
        #expect(result.status != 0)
        if Self.hasOwnConnection {
            #expect(result.errors.contains("stream ended inside a message"))
        }
    }
}
