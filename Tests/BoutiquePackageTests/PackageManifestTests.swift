import BoutiqueTestSupport
import Foundation
import Testing

/// What Package.swift declares on this machine and under its environment switches, read with
/// `swift package dump-package`, which evaluates the manifest without fetching anything.
@Suite(.serialized) struct PackageManifestTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The package as the manifest describes it with `environment` changed (nil removes a variable).
    static func dump(_ changes: [String: String?] = [:]) throws -> [String: Any] {
        var environment = ProcessInfo.processInfo.environment
        // The defaults are what a user gets: no switch set, whatever this test run was started with.
        environment["BOUTIQUE_SYNC_HTTP"] = nil
        environment["BOUTIQUE_SWIFT_HOST_LIBS"] = nil
        for (name, value) in changes { environment[name] = value }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("boutique-manifest-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // A scratch path of its own: the build folder of the `swift test` running this is locked.
        process.arguments = ["swift", "package", "--package-path", root.path, "--scratch-path", scratch.path, "dump-package"]
        process.environment = environment
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let data = output.fileHandleForReading.readToEndRetryingInterrupts()
        let problems = String(decoding: errors.fileHandleForReading.readToEndRetryingInterrupts(), as: UTF8.self)
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "swift package dump-package failed: \(problems)")
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// The remote URLs the manifest declares. A URL that SwiftPM's mirror settings of the checkout
    /// replace with a local copy (`swift package config set-mirror`, for building offline against the
    /// swift-syntax package) counts as declared: `dump-package` shows the copy's path in its place.
    static func remoteDependencies(_ package: [String: Any]) -> [String] {
        let dependencies = package["dependencies"] as? [[String: Any]] ?? []
        return dependencies.compactMap { dependency in
            let control = (dependency["sourceControl"] as? [[String: Any]])?.first
            let location = control?["location"] as? [String: Any]
            if let local = (location?["local"] as? [String])?.first, let original = mirroredURLs[local] { return original }
            return (location?["remote"] as? [[String: Any]])?.first?["urlString"] as? String
        }
    }

    /// The checkout's mirror settings (`.swiftpm/configuration/mirrors.json`): each original URL by the
    /// mirror that replaces it.
    static var mirroredURLs: [String: String] {
        let file = root.appendingPathComponent(".swiftpm/configuration/mirrors.json")
        guard let data = try? Data(contentsOf: file),
            let settings = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let mirrors = settings["object"] as? [[String: String]]
        else { return [:] }
        var urls: [String: String] = [:]
        for entry in mirrors {
            if let mirror = entry["mirror"], let original = entry["original"] { urls[mirror] = original }
        }
        return urls
    }

    static func targets(_ package: [String: Any]) -> [String] {
        (package["targets"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
    }

    static func products(_ package: [String: Any]) -> [String] {
        (package["products"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
    }

    /// Whether the toolchain of `swiftc` on PATH ships SwiftSyntax's modules (the manifest's own test;
    /// on Apple platforms the manifest takes the package without looking).
    static var toolchainHasSwiftSyntax: Bool {
        #if canImport(Darwin)
        return false
        #else
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let compiler = URL(fileURLWithPath: String(directory)).appendingPathComponent("swiftc")
            guard FileManager.default.isExecutableFile(atPath: compiler.path) else { continue }
            let host = compiler.resolvingSymlinksInPath().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("lib/swift/host/SwiftSyntax.swiftmodule")
            return FileManager.default.fileExists(atPath: host.path)
        }
        return false
        #endif
    }

    @Test func theDefaultUsesTheToolchainsSwiftSyntaxAndNeedsNoNetworkWhereItCan() throws {
        let package = try Self.dump()
        let macros = try #require((package["targets"] as? [[String: Any]])?.first { $0["name"] as? String == "BoutiqueMacros" })
        if Self.toolchainHasSwiftSyntax {
            #expect(Self.remoteDependencies(package) == [], "a toolchain with SwiftSyntax builds offline")
            // What tells the plugin protocol tests that the plugin runs its own message connection.
            #expect("\(macros["settings"] ?? "")".contains("BOUTIQUE_TOOLCHAIN_SWIFT_SYNTAX"))
        } else {
            #expect(Self.remoteDependencies(package) == ["https://github.com/swiftlang/swift-syntax.git"])
        }
        // A plugin file that leans on another file's import fails here too, not only in Xcode's build.
        #expect("\(macros["settings"] ?? "")".contains("MemberImportVisibility"), "each file imports what it uses")
    }

    @Test func aHostFolderWithoutSwiftSyntaxChoosesTheSwiftSyntaxPackage() throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("boutique-no-swift-syntax-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        let package = try Self.dump(["BOUTIQUE_SWIFT_HOST_LIBS": empty.path])
        #expect(Self.remoteDependencies(package) == ["https://github.com/swiftlang/swift-syntax.git"])
        let dependency = try #require((package["dependencies"] as? [[String: Any]])?.first)
        let control = try #require((dependency["sourceControl"] as? [[String: Any]])?.first)
        let range = try #require((control["requirement"] as? [String: Any])?["range"] as? [[String: String]])
        // swift-syntax 6xx.y goes with Swift 6.x; this test is built by the compiler that read the manifest.
        #if compiler(>=6.3) && compiler(<6.4)
        #expect(range.first?["lowerBound"] == "603.0.0" && range.first?["upperBound"] == "604.0.0", "\(range)")
        #endif
        #expect(range.first?["lowerBound"]?.hasPrefix("60") == true, "\(range)")
        let macros = try #require((package["targets"] as? [[String: Any]])?.first { $0["name"] as? String == "BoutiqueMacros" })
        #expect("\(macros["dependencies"] ?? "")".contains("SwiftCompilerPlugin"), "the package's plugin entry point")
        #expect(!"\(macros["settings"] ?? "")".contains("unsafeFlags"), "no toolchain paths")
        #expect(!"\(macros["settings"] ?? "")".contains("BOUTIQUE_TOOLCHAIN_SWIFT_SYNTAX"), "swift-syntax's own entry point")
        #expect("\(macros["settings"] ?? "")".contains("MemberImportVisibility"), "each file imports what it uses")
    }

    @Test func theHTTPFrontEndFollowsTheMachineAndTheSwitch() throws {
        let detected = try Self.dump()
        #if BOUTIQUE_SYNC_HTTP
        #expect(Self.targets(detected).contains("BoutiqueSyncHTTP"), "this build has the HTTP front end")
        #else
        #expect(!Self.targets(detected).contains("BoutiqueSyncHTTP"), "this build has no HTTP front end")
        #endif
        let without = try Self.dump(["BOUTIQUE_SYNC_HTTP": "0"])
        #expect(Self.targets(without).filter { ["BoutiqueSyncHTTP", "CMicroHTTPD", "BoutiqueSyncTestServer"].contains($0) } == [])
        #expect(!Self.products(without).contains("BoutiqueSyncHTTP"))
        #expect(Self.products(without).contains("BoutiqueSync") && Self.products(without).contains("BoutiqueSyncServer"))
        let with = try Self.dump(["BOUTIQUE_SYNC_HTTP": "1"])
        #expect(Self.targets(with).contains("BoutiqueSyncHTTP") && Self.targets(with).contains("CMicroHTTPD"))
        #expect(Self.products(with).contains("BoutiqueSyncHTTP"))
    }
}
