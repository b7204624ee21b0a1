import Foundation
import Testing

@Suite("boutique command-line tool")
struct ToolTests {
    @Test func helpListsEveryCommand() async throws {
        try await withTemporaryDirectory { directory in
            let result = try await ToolProcess.run(["--help"], in: directory)
            #expect(result.status == 0)
            for command in ["demo", "sql", "watch", "changes", "migrations", "check"] {
                #expect(result.output.contains("  \(command) "))
            }
            let commandHelp = try await ToolProcess.run(["changes", "--help"], in: directory)
            #expect(commandHelp.status == 0)
            #expect(commandHelp.output.contains("usage: boutique changes FILE"))
        }
    }

    @Test func badArgumentsExitWithTwoAndAMessage() async throws {
        try await withTemporaryDirectory { directory in
            let none = try await ToolProcess.run([], in: directory)
            #expect(none.status == 2)
            let unknown = try await ToolProcess.run(["frobnicate"], in: directory)
            #expect(unknown.status == 2)
            #expect(unknown.errorOutput.contains("unknown command 'frobnicate'"))
            let missing = try await ToolProcess.run(["sql"], in: directory)
            #expect(missing.status == 2)
            #expect(missing.errorOutput.contains("missing FILE"))
            let extra = try await ToolProcess.run(["check", "a.db", "b.db"], in: directory)
            #expect(extra.status == 2)
            #expect(extra.errorOutput.contains("unexpected argument 'b.db'"))
            #expect(!none.errorOutput.contains("Fatal error"))
        }
    }

    @Test func badFilesFailWithOneAndLeaveTheFileAlone() async throws {
        try await withTemporaryDirectory { directory in
            let text = directory.appendingPathComponent("notes.txt")
            let bytes = Data("this is not a database, just some text that is long enough".utf8)
            try bytes.write(to: text)
            for command in [["check", "notes.txt"], ["sql", "notes.txt", "SELECT 1"], ["migrations", "notes.txt"]] {
                let result = try await ToolProcess.run(command, in: directory)
                #expect(result.status == 1, "\(command)")
                #expect(result.errorOutput.contains("file is not a database"), "\(command)")
            }
            #expect(try Data(contentsOf: text) == bytes)
            let folder = try await ToolProcess.run(["check", "."], in: directory)
            #expect(folder.status == 2)
            #expect(folder.errorOutput.contains("is a directory"))
            let missing = try await ToolProcess.run(["changes", "missing.db"], in: directory)
            #expect(missing.status == 2)
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("missing.db").path))
            // A new file by a typo is refused, with the flag that makes one on purpose.
            let new = try await ToolProcess.run(["sql", "new.db", "CREATE TABLE note(id TEXT PRIMARY KEY)"], in: directory)
            #expect(new.status == 2)
            #expect(new.errorOutput.contains("no such file: new.db (add --create"), "\(new.errorOutput)")
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("new.db").path))
            let created = try await ToolProcess.run(["sql", "new.db", "CREATE TABLE note(id TEXT PRIMARY KEY)", "--create"], in: directory)
            #expect(created.status == 0, "\(created.errorOutput)")
        }
    }

    @Test func demoTellsItsStoryAndContinuesOnTheSecondRun() async throws {
        try await withTemporaryDirectory { directory in
            let first = try await ToolProcess.run(["demo"], in: directory)
            #expect(first.status == 0, "\(first.errorOutput)")
            #expect(first.output.contains("migrations applied this time: v1_create_notes, v2_add_pinned_column, v3_search_notes"))
            #expect(!first.output.contains("already applied before"))
            #expect(first.output.contains("Inserted two notes — the live query now shows"))
            #expect(first.output.contains("oat milk, lemons, coffee"))
            #expect(first.output.contains("1 note stored in all."))
            #expect(first.output.contains("update note rowid 1: body=oat milk, lemons, coffee"))
            // The search: both notes, the title match first, matched words in brackets.
            #expect(first.output.contains("""
                Searched the notes for "lemon OR plumber", best match first:
                title              | snippet
                -------------------+---------------------------
                Call the [plumber] | before Friday
                Groceries          | oat milk, [lemons], coffee
                (2 rows)
                """), "\(first.output)")
            #expect(!first.output.contains("noteSearch"), "the change log of the story names only the notes")
            #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("boutique-demo.db").path))
            // The second device: concurrent edits of one note, merged the same on both.
            #if BOUTIQUE_SYNC_HTTP
            #expect(first.output.contains("A second device: a sync server on http://127.0.0.1:"))
            #else
            // Without the HTTP front end the second device reaches the same server in-process, and says so.
            #expect(first.output.contains("A second device: a sync server reached in-process (this build has no HTTP front end"))
            #endif
            #expect(first.output.contains("phone  | Trip to Lisbon | passport, charger"))
            #expect(first.output.contains("The laptop's search for \"passport\" finds: Trip\n"))
            #expect(first.output.contains("laptop | Trip to Lisbon | passport, charger"))
            // Both offline edits of the collaborative body survive, on both.
            #expect(first.output.contains("phone  | Trip to Lisbon | Lisbon, 3 days ⏎ passport, phone charger"), "\(first.output)")
            #expect(first.output.contains("laptop | Trip to Lisbon | Lisbon, 3 days ⏎ passport, phone charger"))
            #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("boutique-demo-second-device.db").path))
            // A photo on the note: the laptop gets the row at once, and the bytes when it asks.
            #expect(first.output.contains("and its copy of the bytes is missing."), "\(first.output)")
            #if BOUTIQUE_SYNC_HTTP
            #expect(first.output.contains("checked against its SHA-256: now local, the same bytes as the phone's."), "\(first.output)")
            #else
            #expect(first.output.contains("Bytes travel over HTTP, which this build has not"), "\(first.output)")
            #endif

            let second = try await ToolProcess.run(["demo"], in: directory)
            #expect(second.status == 0, "\(second.errorOutput)")
            #expect(second.output.contains("3 notes stored in all."), "the first run's note and its trip note, and this run's")
            #expect(second.output.contains("laptop | Trip to Lisbon | Lisbon, 3 days ⏎ passport, phone charger"), "\(second.output)")
            #expect(second.output.contains("migrations applied this time: none new"))
            #expect(second.output.contains("(already applied before: v1_create_notes, v2_add_pinned_column, v3_search_notes, v4_note_photos)"))

            // More notes than the live query shows: the story still ends.
            let third = try await ToolProcess.run(["demo"], in: directory)
            #expect(third.status == 0, "\(third.errorOutput)")
            #expect(third.output.contains("5 notes stored in all."))

            let check = try await ToolProcess.run(["check", "boutique-demo.db"], in: directory)
            #expect(check.status == 0)
            #expect(check.output.contains("integrity:     ok"))
            #expect(check.output.contains("journal mode:  wal"))
            #expect(check.output.contains("turso_cdc v2"))
            let migrations = try await ToolProcess.run(["migrations", "boutique-demo.db"], in: directory)
            #expect(migrations.output.contains("v2_add_pinned_column"))
        }
    }

    #if !BOUTIQUE_SYNC_HTTP
    @Test func serveWithoutTheHTTPFrontEndSaysWhatToInstall() async throws {
        try await withTemporaryDirectory { directory in
            try Data("a secret for the serve test, long enough\n".utf8).write(to: directory.appendingPathComponent("secret"))
            let serve = try await ToolProcess.run(["serve", "--port", "0", "--store", "sync.db", "--secret-file", "secret"], in: directory)
            #expect(serve.status == 1)
            #expect(serve.errorOutput.contains("this build has no HTTP front end"), "\(serve.errorOutput)")
            #expect(serve.errorOutput.contains("sudo apt-get install libmicrohttpd-dev"))
            #expect(serve.errorOutput.contains("brew install libmicrohttpd"))
        }
    }
    #endif

    @Test func sqlPrintsAnAlignedTableAndLogsWrites() async throws {
        try await withTemporaryDirectory { directory in
            let create = try await ToolProcess.run(
                ["sql", "t.db", "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT); INSERT INTO t(name) VALUES ('a;b'), ('it''s')",
                 "--create"], in: directory)
            #expect(create.status == 0, "\(create.errorOutput)")
            let select = try await ToolProcess.run(["sql", "t.db", "SELECT id, name FROM t ORDER BY id"], in: directory)
            #expect(select.output == """
                id | name
                ---+-----
                 1 | a;b
                 2 | it's
                (2 rows)

                """)
            let changes = try await ToolProcess.run(["changes", "t.db", "--json"], in: directory)
            #expect(changes.status == 0)
            let lines = changes.output.split(separator: "\n")
            let objects = try lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            let inserted = objects.compactMap { $0?["changes"] as? [[String: Any]] }.flatMap { $0 }
                .filter { $0["table"] as? String == "t" }
            #expect(inserted.count == 2)
            #expect((inserted.last?["after"] as? [String: Any])?["name"] as? String == "it's")
            let failed = try await ToolProcess.run(["sql", "t.db", "INSERT INTO missing VALUES (1)"], in: directory)
            #expect(failed.status == 1)
            #expect(failed.errorOutput.contains("no such table: missing"))
        }
    }

    @Test func changesSinceTheLatestTokenPrintsThatThereAreNoneAndAChangeIDInsideATransactionListsItWhole() async throws {
        try await withTemporaryDirectory { directory in
            _ = try await ToolProcess.run(["sql", "c.db", "CREATE TABLE t(id INTEGER PRIMARY KEY)", "--create"], in: directory)
            _ = try await ToolProcess.run(["sql", "c.db", "INSERT INTO t VALUES (1), (2)"], in: directory)
            let all = try await ToolProcess.run(["changes", "c.db"], in: directory)
            let tokens = all.output.split(separator: "\n").compactMap { line -> Int? in
                guard line.hasPrefix("transaction"), let range = line.range(of: "token ") else { return nil }
                return Int(line[range.upperBound...].prefix { $0.isNumber })
            }
            #expect(tokens.count == 2, "\(all.output)")
            guard let latest = tokens.last, let first = tokens.first else { return }

            let none = try await ToolProcess.run(["changes", "c.db", "--since", "\(latest)"], in: directory)
            #expect(none.status == 0)
            #expect(none.output == "no changes after \(latest)\n")

            // The insert's first row change: its transaction is listed with both rows.
            let inside = try await ToolProcess.run(["changes", "c.db", "--since", "\(first + 1)"], in: directory)
            #expect(inside.status == 0)
            #expect(inside.output.hasPrefix("transaction \(first + 1) — token \(latest), 2 changes"), "\(inside.output)")
        }
    }

    @Test func watchReprintsWhenAnotherProcessCommits() async throws {
        try await withTemporaryDirectory { directory in
            _ = try await ToolProcess.run(["sql", "w.db", "CREATE TABLE item(name TEXT)", "--create"], in: directory)
            let watch = try ToolProcess.start(["watch", "w.db", "SELECT count(*) AS n FROM item", "--count", "2"], in: directory)
            // Once the watcher has printed its first table (the count, 0), commit from another process.
            let printed = ContinuousClock.now + .seconds(120)
            while !watch.process.output.contains("0"), watch.process.isRunning, ContinuousClock.now < printed {
                try await Task.sleep(for: .milliseconds(10))
            }
            let insert = try await ToolProcess.run(["sql", "w.db", "INSERT INTO item VALUES ('one'), ('two')"], in: directory)
            #expect(insert.status == 0)
            let result = await watch.finish()
            #expect(result.status == 0, "\(result.errorOutput)")
            let tables = result.output.components(separatedBy: "\n\n")
            #expect(tables.count == 2)
            #expect(tables.first?.contains("0") == true)
            #expect(tables.last?.contains("2") == true)
        }
    }
}
