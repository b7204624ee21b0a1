// swift-tools-version: 6.2
//
// BoutiqueDB builds with the toolchain alone: SQLite comes from the system (Debian's `libsqlite3-dev`,
// or the SDK on Apple platforms), so does libpq for the sync server's PostgreSQL store (`libpq-dev`), and
// the macro plugin links the SwiftSyntax modules that ship inside the toolchain, so the package has no
// remote dependency and builds offline.
import CompilerPluginSupport
import Foundation
import PackageDescription

/// The folder holding the toolchain's own SwiftSyntax modules (`<toolchain>/usr/lib/swift/host`).
///
/// Found from `swiftc` on `PATH` (links resolved), or from `BOUTIQUE_SWIFT_HOST_LIBS` when set.
let toolchainHostLibraries: String? = {
    let environment = ProcessInfo.processInfo.environment
    if let explicit = environment["BOUTIQUE_SWIFT_HOST_LIBS"], !explicit.isEmpty { return explicit }
    let fileManager = FileManager.default
    for directory in (environment["PATH"] ?? "").split(separator: ":") {
        let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent("swiftc")
        guard fileManager.isExecutableFile(atPath: candidate.path) else { continue }
        let compiler = candidate.resolvingSymlinksInPath()
        let host = compiler.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("lib/swift/host")
        if fileManager.fileExists(atPath: host.appendingPathComponent("SwiftSyntax.swiftmodule").path) {
            return host.path
        }
    }
    return nil
}()

let macroSwiftSettings: [SwiftSetting] = toolchainHostLibraries.map { [.unsafeFlags(["-I", $0])] } ?? []
let macroLinkerSettings: [LinkerSetting] = toolchainHostLibraries.map {
    [
        .unsafeFlags(["-L", $0, "-Xlinker", "-rpath", "-Xlinker", $0]),
        .linkedLibrary("SwiftSyntax"), .linkedLibrary("SwiftSyntaxMacros"),
        .linkedLibrary("SwiftSyntaxBuilder"), .linkedLibrary("SwiftDiagnostics"),
        .linkedLibrary("SwiftParser"), .linkedLibrary("SwiftBasicFormat"),
        .linkedLibrary("SwiftCompilerPluginMessageHandling"),
        .linkedLibrary("SwiftSyntaxMacroExpansion"), .linkedLibrary("SwiftOperators"),
    ]
} ?? []

let package = Package(
    name: "BoutiqueDB",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "BoutiqueDB", targets: ["BoutiqueDB"]),
        .library(name: "BoutiqueSync", targets: ["BoutiqueSync"]),
        .library(name: "BoutiqueSyncServer", targets: ["BoutiqueSyncServer"]),
        .executable(name: "boutique", targets: ["boutique"]),
        .executable(name: "boutique-benchmarks", targets: ["BoutiqueBenchmarks"]),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // The sync server's HTTP (GNU libmicrohttpd) and its tokens' HMAC (OpenSSL's libcrypto).
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        // libpq, for the sync server's PostgreSQL store (Debian's `libpq-dev`).
        .systemLibrary(
            name: "CPostgreSQL",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"]), .brew(["libpq"])]
        ),
        .target(name: "BoutiqueSQLite", dependencies: ["CSQLite"]),
        .macro(
            name: "BoutiqueMacros",
            swiftSettings: macroSwiftSettings,
            linkerSettings: macroLinkerSettings
        ),
        .target(name: "BoutiqueQueries", dependencies: ["BoutiqueSQLite", "BoutiqueMacros"]),
        .target(name: "BoutiqueDB", dependencies: ["BoutiqueSQLite", "BoutiqueQueries"]),
        // What devices and the server share: the clock, the merge rule, the protocol's messages.
        .target(name: "BoutiqueSyncCore", dependencies: ["BoutiqueDB"]),
        .target(name: "BoutiqueSync", dependencies: ["BoutiqueSyncCore", "BoutiqueDB"]),
        .target(name: "BoutiqueSyncServer", dependencies: ["BoutiqueSyncCore", "BoutiqueDB", "CMicroHTTPD", "CCrypto", "CPostgreSQL"]),
        .executableTarget(name: "boutique", dependencies: ["BoutiqueDB", "BoutiqueSync", "BoutiqueSyncServer", "CSQLite"]),
        .executableTarget(
            name: "BoutiqueBenchmarks", dependencies: ["BoutiqueDB", "CSQLite", "BoutiqueSync", "BoutiqueSyncServer"]),
        // A child process for the multi-process and crash tests: they start it, kill it, and check the file.
        .executableTarget(name: "BoutiqueTestWorker", dependencies: ["BoutiqueDB", "BoutiqueReplayWorkload"]),
        // A sync server process that crashes between a push's commit and its reply, for the sync tests.
        .executableTarget(
            name: "BoutiqueSyncTestServer", dependencies: ["BoutiqueSyncServer"], path: "Tests/BoutiqueSyncTestServer"),
        // What the tests share: the seeded random generator of the fuzz, record and reliability tests,
        // and the child processes of the ones that run executables.
        .target(name: "BoutiqueTestSupport", dependencies: ["BoutiqueSQLite"], path: "Tests/BoutiqueTestSupport"),
        // A SQLite VFS that fails chosen I/O calls, for the fault-injection tests.
        .target(name: "CFaultInjection", dependencies: ["CSQLite"], path: "Tests/CFaultInjection"),
        // The change-log workload the replay tests and their child processes run.
        .target(
            name: "BoutiqueReplayWorkload", dependencies: ["BoutiqueDB", "BoutiqueTestSupport"],
            path: "Tests/BoutiqueReplayWorkload"),
        .testTarget(
            name: "BoutiqueSQLiteTests", dependencies: ["BoutiqueSQLite", "CSQLite", "BoutiqueTestSupport"],
            exclude: ["Fixtures"]),
        .testTarget(
            name: "BoutiqueQueriesTests", dependencies: ["BoutiqueQueries", "BoutiqueSQLite", "BoutiqueTestSupport"],
            swiftSettings: [.unsafeFlags(["-Xfrontend", "-warn-long-expression-type-checking=100"])]),
        .testTarget(
            name: "BoutiqueMacrosTests",
            dependencies: ["BoutiqueMacros", "BoutiqueTestSupport"],
            swiftSettings: macroSwiftSettings,
            linkerSettings: macroLinkerSettings
        ),
        .testTarget(
            name: "BoutiqueDBTests",
            dependencies: ["BoutiqueDB", "BoutiqueTestWorker", "BoutiqueTestSupport", "BoutiqueReplayWorkload", "CSQLite", "CFaultInjection"],
            exclude: ["Scripts"]),
        .testTarget(
            name: "BoutiqueSyncTests",
            dependencies: [
                "BoutiqueSync", "BoutiqueSyncServer", "BoutiqueSyncCore", "BoutiqueTestSupport", "boutique",
                "BoutiqueSyncTestServer",
            ]),
        // Runs the built `boutique` executable as a child process.
        .testTarget(name: "BoutiqueCLITests", dependencies: ["boutique", "BoutiqueTestSupport"]),
        // The product description's error handling in every shape an app writes it, and a reminders
        // app's queries, each in a module built with warnings as errors: a shape that warns ("'as' test
        // is always true"), crashes the compiler, or has an expression that takes over 100 ms to
        // type-check fails the build. (Swift Testing's macros do not build with warnings as errors,
        // so the tests that run these shapes are separate modules.)
        .target(
            name: "BoutiqueErrorHandlingShapes", dependencies: ["BoutiqueDB"], path: "Tests/BoutiqueErrorHandlingShapes",
            swiftSettings: [.unsafeFlags(["-warnings-as-errors"])]),
        .testTarget(name: "BoutiqueErrorHandlingTests", dependencies: ["BoutiqueDB", "BoutiqueErrorHandlingShapes"]),
        .target(
            name: "BoutiqueQueryShapes", dependencies: ["BoutiqueDB"], path: "Tests/BoutiqueQueryShapes",
            swiftSettings: [
                .unsafeFlags(["-warnings-as-errors", "-Xfrontend", "-warn-long-expression-type-checking=100"])
            ]),
        .testTarget(
            name: "BoutiqueQueryShapesTests", dependencies: ["BoutiqueDB", "BoutiqueQueryShapes"],
            swiftSettings: [.unsafeFlags(["-Xfrontend", "-warn-long-expression-type-checking=100"])]),
        // The Swift listings of the DocC articles, one file per article, built with warnings as errors so
        // that a listing that stops compiling fails the build; Scripts/check-doc-listings.py fails when an
        // article shows a listing that is not here. The tests run a few of them.
        .target(
            name: "BoutiqueDocumentationListings",
            dependencies: ["BoutiqueDB", "BoutiqueSync", "BoutiqueSyncServer"],
            path: "Tests/BoutiqueDocumentationListings",
            swiftSettings: [.unsafeFlags(["-warnings-as-errors"])]),
        .testTarget(name: "BoutiqueDocumentationListingsTests", dependencies: ["BoutiqueDocumentationListings"]),
        // Models and queries in a module whose declarations are main-actor isolated by default, as new
        // app projects are.
        .testTarget(
            name: "BoutiqueMainActorModuleTests", dependencies: ["BoutiqueDB"],
            swiftSettings: [.defaultIsolation(MainActor.self)]),
    ],
    swiftLanguageModes: [.v6]
)
