// swift-tools-version: 6.2
//
// BoutiqueDB builds with the toolchain alone: SQLite comes from the system (Debian's `libsqlite3-dev`,
// or the SDK on Apple platforms), so does libpq for the sync server's PostgreSQL store (`libpq-dev`), and
// the macro plugin links the SwiftSyntax modules that ship inside the toolchain where it has them, so on
// Linux the package has no remote dependency and builds offline. Where the toolchain has no SwiftSyntax
// modules (Xcode's), the plugin uses the swift-syntax package instead.
//
// Two commands and nothing else: the sync server's HTTP front end (BoutiqueSyncHTTP, over GNU
// libmicrohttpd) is only part of the package where libmicrohttpd is installed. `swift build` builds
// every target of a package, so a target whose C header is missing cannot merely go unused: it must not
// be declared. The manifest looks for the library when it is read (`BOUTIQUE_SYNC_HTTP=1` or `=0`
// decides instead). Apps never need it: BoutiqueDB, BoutiqueSync and the server's logic and stores do
// not depend on it.
import CompilerPluginSupport
import Foundation
import PackageDescription

let environment = ProcessInfo.processInfo.environment

// MARK: SwiftSyntax, from the toolchain or the package

/// The SwiftSyntax modules the macro plugin and its tests import or link.
let swiftSyntaxModules = [
    "SwiftSyntax", "SwiftSyntaxMacros", "SwiftSyntaxBuilder", "SwiftDiagnostics", "SwiftParser", "SwiftBasicFormat",
    "SwiftCompilerPluginMessageHandling", "SwiftSyntaxMacroExpansion", "SwiftOperators",
]

/// Whether `folder` holds every module of ``swiftSyntaxModules`` (its `.swiftmodule`).
func holdsSwiftSyntax(_ folder: String) -> Bool {
    swiftSyntaxModules.allSatisfy {
        FileManager.default.fileExists(atPath: URL(fileURLWithPath: folder).appendingPathComponent("\($0).swiftmodule").path)
    }
}

/// The folder holding the toolchain's own SwiftSyntax modules (`<toolchain>/usr/lib/swift/host`), or nil
/// when there is none and the swift-syntax package is used instead.
///
/// `BOUTIQUE_SWIFT_HOST_LIBS` names the folder when set (one without SwiftSyntax chooses the package);
/// otherwise, off Apple platforms, it is found from `swiftc` on `PATH`, links resolved. On a Mac the
/// package is used unless the variable says otherwise: `/usr/bin/swiftc` is the `xcrun` shim, beside
/// which there is no toolchain, Xcode's toolchain is not known to ship SwiftSyntax's modules, and the
/// flags that link a toolchain's would make SwiftPM refuse the package as a versioned dependency.
let toolchainHostLibraries: String? = {
    if let explicit = environment["BOUTIQUE_SWIFT_HOST_LIBS"], !explicit.isEmpty {
        return holdsSwiftSyntax(explicit) ? explicit : nil
    }
    #if canImport(Darwin)
    return nil
    #else
    for directory in (environment["PATH"] ?? "").split(separator: ":") {
        let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent("swiftc")
        guard FileManager.default.isExecutableFile(atPath: candidate.path) else { continue }
        let compiler = candidate.resolvingSymlinksInPath()
        let host = compiler.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("lib/swift/host")
        if holdsSwiftSyntax(host.path) { return host.path }
    }
    return nil
    #endif
}()

/// The swift-syntax releases made for the compiler reading this manifest (swift-syntax 6xx.y goes with
/// Swift 6.x): a macro plugin built against another release may not understand this compiler's syntax.
let swiftSyntaxVersions: Range<Version> = {
    #if compiler(>=6.5)
    return "605.0.0"..<"606.0.0"
    #elseif compiler(>=6.4)
    return "604.0.0"..<"605.0.0"
    #elseif compiler(>=6.3)
    return "603.0.0"..<"604.0.0"
    #else
    return "602.0.0"..<"603.0.0"
    #endif
}()

let packageDependencies: [Package.Dependency] =
    toolchainHostLibraries == nil
    ? [.package(url: "https://github.com/swiftlang/swift-syntax.git", swiftSyntaxVersions)] : []

/// The macro target's SwiftSyntax: flags for the toolchain's modules, or the package's products (with
/// `SwiftCompilerPlugin`, which the toolchain does not ship; the plugin's entry point uses it where it
/// can be imported). With the toolchain's, `BOUTIQUE_TOOLCHAIN_SWIFT_SYNTAX` is defined, so that the
/// macro tests know the plugin runs its own message connection.
func swiftSyntax(_ modules: [String]) -> (dependencies: [Target.Dependency], swift: [SwiftSetting], linker: [LinkerSetting]) {
    guard let host = toolchainHostLibraries else {
        return (modules.map { .product(name: $0, package: "swift-syntax") }, [], [])
    }
    return (
        [], [.unsafeFlags(["-I", host]), .define("BOUTIQUE_TOOLCHAIN_SWIFT_SYNTAX")],
        [.unsafeFlags(["-L", host, "-Xlinker", "-rpath", "-Xlinker", host])] + swiftSyntaxModules.map { .linkedLibrary($0) }
    )
}

let macroSyntax = swiftSyntax([
    "SwiftSyntax", "SwiftSyntaxMacros", "SwiftSyntaxBuilder", "SwiftDiagnostics", "SwiftParser", "SwiftCompilerPlugin",
])
let macroTestSyntax = swiftSyntax([
    "SwiftSyntax", "SwiftSyntaxMacros", "SwiftSyntaxBuilder", "SwiftDiagnostics", "SwiftParser", "SwiftSyntaxMacroExpansion",
])

// MARK: GNU libmicrohttpd, where it is installed

/// Where pkg-config looks for `.pc` files: `PKG_CONFIG_PATH`, then the usual system folders (Debian's
/// multiarch ones included) and Homebrew's.
func pkgConfigFolders() -> [String] {
    var folders = (environment["PKG_CONFIG_PATH"] ?? "").split(separator: ":").map(String.init)
    folders += (environment["PKG_CONFIG_LIBDIR"] ?? "").split(separator: ":").map(String.init)
    let multiarch = ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib")) ?? [])
        .filter { $0.hasSuffix("-linux-gnu") }.sorted().map { "/usr/lib/\($0)/pkgconfig" }
    folders += multiarch + [
        "/usr/lib/pkgconfig", "/usr/share/pkgconfig", "/usr/local/lib/pkgconfig", "/usr/local/share/pkgconfig",
        "/opt/homebrew/lib/pkgconfig", "/opt/local/lib/pkgconfig",
    ]
    return folders
}

/// Whether `path` (links followed) is a regular file with something in it: a file hidden by mounting
/// `/dev/null` over it, or emptied, does not count.
func isNonEmptyFile(_ path: String) -> Bool {
    let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    guard let attributes = try? FileManager.default.attributesOfItem(atPath: resolved) else { return false }
    return attributes[.type] as? FileAttributeType == .typeRegular && ((attributes[.size] as? NSNumber)?.intValue ?? 0) > 0
}

/// The variables of a pkg-config file (`prefix=/usr`, `includedir=${prefix}/include`, …), expanded.
func pkgConfigVariables(_ text: String) -> [String: String] {
    var variables: [String: String] = [:]
    for line in text.split(separator: "\n") {
        guard let equals = line.firstIndex(of: "="), !line.hasPrefix("#"), !line[..<equals].contains(":") else { continue }
        var value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
        for (name, known) in variables { value = value.replacingOccurrences(of: "${\(name)}", with: known) }
        variables[line[..<equals].trimmingCharacters(in: .whitespaces)] = value
    }
    return variables
}

/// Whether GNU libmicrohttpd can be built against: its `libmicrohttpd.pc`, the `microhttpd.h` and the
/// library that file names are all there (what `libmicrohttpd-dev`, or `brew install libmicrohttpd`,
/// installs).
func microHTTPDIsInstalled() -> Bool {
    for folder in pkgConfigFolders() {
        let file = URL(fileURLWithPath: folder).appendingPathComponent("libmicrohttpd.pc").path
        guard isNonEmptyFile(file), let text = try? String(contentsOfFile: file, encoding: .utf8) else { continue }
        let variables = pkgConfigVariables(text)
        guard let prefix = variables["prefix"] else { continue }
        let include = variables["includedir"] ?? prefix + "/include"
        let library = variables["libdir"] ?? prefix + "/lib"
        guard isNonEmptyFile(include + "/microhttpd.h") else { continue }
        if ["so", "dylib", "a"].contains(where: { isNonEmptyFile(library + "/libmicrohttpd." + $0) }) { return true }
    }
    return false
}

/// Whether the package has the HTTP front end: `BOUTIQUE_SYNC_HTTP=1` insists (a machine without the
/// library then fails to build, as CI wants), `=0` leaves it out, and otherwise it follows the machine.
let buildsSyncHTTP: Bool = {
    switch environment["BOUTIQUE_SYNC_HTTP"] {
    case "1": return true
    case "0": return false
    default: return microHTTPDIsInstalled()
    }
}()

/// `target` where the HTTP front end is built, nothing elsewhere.
func withHTTP<T>(_ items: [T]) -> [T] { buildsSyncHTTP ? items : [] }

/// What the executables and tests that also run over HTTP add where it is built: the module, and the
/// `BOUTIQUE_SYNC_HTTP` condition their HTTP code is compiled under.
let httpDependencies: [Target.Dependency] = withHTTP(["BoutiqueSyncHTTP"])
let httpSettings: [SwiftSetting] = withHTTP([.define("BOUTIQUE_SYNC_HTTP")])

/// The platforms without CryptoKit, where token signatures use OpenSSL's libcrypto.
let platformsWithoutCryptoKit: [Platform] = [.linux, .android, .windows, .openbsd, .wasi]

let package = Package(
    name: "BoutiqueDB",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "BoutiqueDB", targets: ["BoutiqueDB"]),
        .library(name: "BoutiqueSync", targets: ["BoutiqueSync"]),
        .library(name: "BoutiqueSyncServer", targets: ["BoutiqueSyncServer"]),
    ] + withHTTP([
        .library(name: "BoutiqueSyncHTTP", targets: ["BoutiqueSyncHTTP"]),
    ]) + [
        .executable(name: "boutique", targets: ["boutique"]),
        .executable(name: "boutique-benchmarks", targets: ["BoutiqueBenchmarks"]),
    ],
    dependencies: packageDependencies,
    targets: withHTTP([
        // The sync server's HTTP front end over GNU libmicrohttpd, where it is installed (see the top).
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"]), .brew(["libmicrohttpd"])]),
        .target(name: "BoutiqueSyncHTTP", dependencies: ["BoutiqueSyncServer", "BoutiqueSQLite", "CMicroHTTPD"]),
        // A sync server process that crashes between a push's commit and its reply, for the sync tests.
        .executableTarget(
            name: "BoutiqueSyncTestServer", dependencies: ["BoutiqueSyncHTTP"], path: "Tests/BoutiqueSyncTestServer"),
    ]) + [
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // The sync tokens' HMAC where CryptoKit is missing (OpenSSL's libcrypto).
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        // libpq, for the sync server's PostgreSQL store (Debian's `libpq-dev`).
        .systemLibrary(
            name: "CPostgreSQL",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"]), .brew(["libpq"])]
        ),
        .target(name: "BoutiqueSQLite", dependencies: ["CSQLite"]),
        // Each of the plugin's files sees only the modules it imports itself. Otherwise one file's import
        // lends its module's members to every file: the message connection's `import Foundation` once did
        // so, and the plugin built against the swift-syntax package (as Xcode builds it), which leaves
        // that file out, failed to compile where the build against the toolchain's SwiftSyntax passed.
        .macro(
            name: "BoutiqueMacros",
            dependencies: macroSyntax.dependencies,
            swiftSettings: macroSyntax.swift + [.enableUpcomingFeature("MemberImportVisibility")],
            linkerSettings: macroSyntax.linker
        ),
        .target(name: "BoutiqueQueries", dependencies: ["BoutiqueSQLite", "BoutiqueMacros"]),
        // libcrypto names attachments by the SHA-256 of their bytes where CryptoKit is missing.
        .target(
            name: "BoutiqueDB",
            dependencies: [
                "BoutiqueSQLite", "BoutiqueQueries",
                .target(name: "CCrypto", condition: .when(platforms: platformsWithoutCryptoKit)),
            ]),
        // What devices and the server share: the merge rule, the protocol's messages, the sharing rules
        // and roles, tokens. (The clock is BoutiqueDB's, which stamps every commit.)
        .target(name: "BoutiqueSyncCore", dependencies: ["BoutiqueDB"]),
        // HTTPS for the sync transport on Linux, through the libcurl FoundationNetworking loads (see its header).
        .target(name: "CLibcurl", linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
        .target(
            name: "BoutiqueSync",
            dependencies: ["BoutiqueSyncCore", "BoutiqueDB", .target(name: "CLibcurl", condition: .when(platforms: [.linux]))]),
        .target(
            name: "BoutiqueSyncServer",
            dependencies: [
                "BoutiqueSyncCore", "BoutiqueDB", "CPostgreSQL",
                .target(name: "CCrypto", condition: .when(platforms: platformsWithoutCryptoKit)),
            ]),
        .executableTarget(
            name: "boutique", dependencies: ["BoutiqueDB", "BoutiqueSync", "BoutiqueSyncServer", "CSQLite"] + httpDependencies,
            swiftSettings: httpSettings),
        .executableTarget(
            name: "BoutiqueBenchmarks",
            dependencies: ["BoutiqueDB", "CSQLite", "BoutiqueSync", "BoutiqueSyncServer", .target(name: "CLibcurl", condition: .when(platforms: [.linux]))]
                + httpDependencies,
            swiftSettings: httpSettings),
        // A child process for the multi-process and crash tests: they start it, kill it, and check the file.
        .executableTarget(name: "BoutiqueTestWorker", dependencies: ["BoutiqueDB", "BoutiqueReplayWorkload", "BoutiqueTestSupport"]),
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
            dependencies: ["BoutiqueMacros", "BoutiqueTestSupport"] + macroTestSyntax.dependencies,
            swiftSettings: macroTestSyntax.swift,
            linkerSettings: macroTestSyntax.linker
        ),
        .testTarget(
            name: "BoutiqueDBTests",
            dependencies: ["BoutiqueDB", "BoutiqueTestWorker", "BoutiqueTestSupport", "BoutiqueReplayWorkload", "CSQLite", "CFaultInjection"],
            exclude: ["Scripts"]),
        // Its HTTP and process tests (`boutique serve`) are compiled where the HTTP front end is.
        .testTarget(
            name: "BoutiqueSyncTests",
            dependencies: ["BoutiqueSync", "BoutiqueSyncServer", "BoutiqueSyncCore", "BoutiqueTestSupport", "boutique"]
                + httpDependencies + withHTTP(["BoutiqueSyncTestServer"])
                // Keys and JSON Web Tokens made at test time, as an identity provider makes them.
                + [.target(name: "CCrypto", condition: .when(platforms: platformsWithoutCryptoKit))],
            swiftSettings: httpSettings),
        // What Package.swift declares here and under its environment switches (`swift package dump-package`).
        .testTarget(name: "BoutiquePackageTests", dependencies: ["BoutiqueTestSupport"], swiftSettings: httpSettings),
        // Runs the built `boutique` executable as a child process.
        .testTarget(name: "BoutiqueCLITests", dependencies: ["boutique", "BoutiqueTestSupport"], swiftSettings: httpSettings),
        // The product description's error handling in every shape an app writes it, and a reminders
        // app's queries, each in a module built with warnings as errors: a shape that warns ("'as' test
        // is always true"), crashes the compiler, or has an expression that takes over 300 ms to
        // type-check fails the build. (The limit catches an expression that blows up, which takes
        // seconds: a join the idle 2-core machine checks in 60 to 110 ms took 158 ms with the rest of
        // the build beside it, so a tighter one fails builds on busy machines.) (Swift Testing's macros do not build with warnings as errors,
        // so the tests that run these shapes are separate modules.)
        .target(
            name: "BoutiqueErrorHandlingShapes", dependencies: ["BoutiqueDB"], path: "Tests/BoutiqueErrorHandlingShapes",
            swiftSettings: [.unsafeFlags(["-warnings-as-errors"])]),
        .testTarget(name: "BoutiqueErrorHandlingTests", dependencies: ["BoutiqueDB", "BoutiqueErrorHandlingShapes"]),
        .target(
            name: "BoutiqueQueryShapes", dependencies: ["BoutiqueDB"], path: "Tests/BoutiqueQueryShapes",
            swiftSettings: [
                .unsafeFlags(["-warnings-as-errors", "-Xfrontend", "-warn-long-expression-type-checking=300"])
            ]),
        .testTarget(
            name: "BoutiqueQueryShapesTests", dependencies: ["BoutiqueDB", "BoutiqueQueryShapes"],
            swiftSettings: [.unsafeFlags(["-Xfrontend", "-warn-long-expression-type-checking=100"])]),
        // The Swift listings of the DocC articles, one file per article, built with warnings as errors so
        // that a listing that stops compiling fails the build; Scripts/check-doc-listings.py fails when an
        // article shows a listing that is not here. The tests run a few of them.
        .target(
            name: "BoutiqueDocumentationListings",
            dependencies: ["BoutiqueDB", "BoutiqueSync", "BoutiqueSyncServer"] + httpDependencies,
            path: "Tests/BoutiqueDocumentationListings",
            swiftSettings: [.unsafeFlags(["-warnings-as-errors"])] + httpSettings),
        .testTarget(name: "BoutiqueDocumentationListingsTests", dependencies: ["BoutiqueDocumentationListings"]),
        // Models and queries in a module whose declarations are main-actor isolated by default, as new
        // app projects are.
        .testTarget(
            name: "BoutiqueMainActorModuleTests", dependencies: ["BoutiqueDB"],
            swiftSettings: [.defaultIsolation(MainActor.self)]),
    ],
    swiftLanguageModes: [.v6]
)
