@testable import BoutiqueDB
import Foundation
import Testing

/// A live query's fetch may take its reader on the committing thread, before its task runs: the
/// reader comes back however the observation ends.
@Suite struct LiveQueryReaderLeaseTests {
    @Test func observationsCancelledBeforeTheirFetchRunsGiveTheReaderBack() async throws {
        let directory = try TemporaryDirectory()
        let database = try await DatabaseActor.open(
            url: directory.file("leases.db"), migrations: LiveQueryMigrations.plan, options: .init(readerCount: 1))
        for round in 0..<20 {
            let observation = QueryObservation<Int64>(database: database) { connection, _ in
                (try connection.fetchValue("SELECT count(*) FROM counter").flatMap { if case .integer(let n) = $0 { n } else { nil } },
                 ReadRegion(tables: ["counter"]))
            }
            // The first fetch leases the only reader here; cancelled at once, its task finds nothing to
            // deliver to.
            observation.start { _ in .taken }
            observation.cancel()
            try await database.write { conn in try conn.execute("INSERT INTO counter(label) VALUES (?)", [.text("\(round)")]) }
        }
        // The reader is back: a read gets it, and closing (which waits for it) returns.
        #expect(try await withTimeout(10) { try await database.read { conn in try conn.count("counter") } } == 20)
        try await withTimeout(10) { await database.close() }
    }
}
