import BoutiqueSync
@testable import BoutiqueSyncServer
import Foundation
import Testing

/// A database of its own for each PostgreSQL test, on the server `BOUTIQUE_TEST_POSTGRES_URL` names
/// (`Scripts/postgres-test-cluster.sh start DIR` starts a throwaway one and prints its URL).
///
/// ```swift
/// try await PostgreSQLTestDatabase.withFresh { url in
///     let store = try await PostgreSQLSyncStore.open(url: url)
///     …
/// }
/// ```
///
/// Without the variable a test prints that it did not run and returns; with it, a server that cannot
/// be reached fails the test. Each database has a random name and is dropped afterwards (forcibly, so a
/// store a failed test left open does not keep it), so tests run in parallel.
enum PostgreSQLTestDatabase {
    static let environmentVariable = "BOUTIQUE_TEST_POSTGRES_URL"

    /// The server's URL, or `nil` after printing that `test` did not run.
    static func serverURL(test: String) -> String? {
        guard let url = ProcessInfo.processInfo.environment[environmentVariable], !url.isEmpty else {
            print("◇ PostgreSQL test '\(test)' did not run: \(environmentVariable) is not set (Scripts/postgres-test-cluster.sh start DIR prints a URL)")
            return nil
        }
        return url
    }

    /// Runs `body` with the URL of a new, empty database, dropped afterwards; returns at once when no
    /// server is configured.
    static func withFresh(test: String = #function, _ body: (String) async throws -> Void) async throws {
        guard let server = serverURL(test: test) else { return }
        // A name made here, of hex digits only: CREATE DATABASE takes no parameters.
        let name = "boutique_test_" + UUID().uuidString.lowercased().filter(\.isHexDigit)
        try await execute("CREATE DATABASE \(name)", on: server)
        do {
            try await body(try url(of: name, on: server))
        } catch {
            try? await execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)", on: server)
            throw error
        }
        try await execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)", on: server)
    }

    /// `server`'s URL with `database` in place of its database.
    static func url(of database: String, on server: String) throws -> String {
        guard var components = URLComponents(string: server), components.scheme?.hasPrefix("postgres") == true else {
            throw BoutiqueError.invalidArgument("\(environmentVariable) must be a postgresql:// URL, not '\(server)'")
        }
        components.path = "/" + database
        guard let url = components.string else { throw BoutiqueError.invalidArgument("cannot make a URL for \(database) from '\(server)'") }
        return url
    }

    /// Runs one statement outside any transaction, on a connection of its own, off the cooperative pool.
    static func execute(_ sql: String, _ parameters: [PostgreSQLValue] = [], on url: String) async throws {
        _ = try await integers(sql, parameters, on: url)
    }

    /// Runs one statement like ``execute(_:_:on:)`` and returns the first column of its rows, as bigints.
    static func integers(_ sql: String, _ parameters: [PostgreSQLValue] = [], on url: String) async throws -> [Int64] {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[Int64], any Error>) in
            DispatchQueue.global().async {
                continuation.resume(with: Result { () throws -> [Int64] in
                    let result = try PostgreSQLConnection(url: url).execute(sql, parameters)
                    guard result.columnCount > 0 else { return [] }
                    return try (0..<result.rowCount).map { try result.int64($0, 0) }
                })
            }
        }
    }
}

/// Waits until `condition` holds, checking every 10 ms; records an issue after `seconds` (stretched by
/// `BOUTIQUE_TEST_TIMEOUT_SCALE`: under a sanitizer, on a busy machine, a transaction's first statement
/// once took longer than 20 s), and never before three minutes: a hang guard, not a measure. (With
/// `stress-ng` on every core, the tenant-files tests all ran slow together, and a transaction on a
/// new tenant's file took over a minute to begin.)
func waitUntil(
    seconds: Double = 20, _ what: String, sourceLocation: SourceLocation = #_sourceLocation, _ condition: () async throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + .milliseconds(Int(max(syncHangDeadline(seconds: seconds), 180) * 1000))
    while try await !condition() {
        guard ContinuousClock.now < deadline else {
            Issue.record("timed out waiting until \(what)", sourceLocation: sourceLocation)
            return
        }
        try await Task.sleep(for: .milliseconds(10))
    }
}
