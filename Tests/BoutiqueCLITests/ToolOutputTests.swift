import Foundation
import Testing

/// Where the tool writes what: results on standard output, usage and errors on standard error, and
/// messages in the tool's own words.
@Suite("boutique output")
struct ToolOutputTests {
    @Test func versionPrintsOnStandardOutput() async throws {
        try await withTemporaryDirectory { directory in
            for flag in ["--version", "-V"] {
                let result = try await ToolProcess.run([flag], in: directory)
                #expect(result.status == 0, "\(flag)")
                #expect(result.output.hasPrefix("boutique 0.1.0 (BoutiqueDB 0.1.0, SQLite 3."), "\(result.output)")
                #expect(result.output.hasSuffix(")\n"))
                #expect(result.errorOutput.isEmpty)
            }
        }
    }

    @Test func usageAndErrorsGoToStandardErrorOnly() async throws {
        try await withTemporaryDirectory { directory in
            let cases: [([String], Int32)] = [
                ([], 2), (["frobnicate"], 2), (["sql"], 2), (["check", "a.db", "b.db"], 2), (["watch", "missing.db", "SELECT 1"], 2),
                (["sql", "t.db", "SELECT * FROM nowhere", "--create"], 1),
            ]
            for (arguments, status) in cases {
                let result = try await ToolProcess.run(arguments, in: directory)
                #expect(result.status == status, "\(arguments)")
                #expect(result.output.isEmpty, "\(arguments) wrote to standard output: \(result.output)")
                #expect(!result.errorOutput.isEmpty, "\(arguments)")
            }
            let none = try await ToolProcess.run([], in: directory)
            #expect(none.errorOutput.contains("usage: boutique COMMAND"))
        }
    }

    @Test func countsAgreeWithTheirNouns() async throws {
        try await withTemporaryDirectory { directory in
            let create = try await ToolProcess.run(["sql", "one.db", "CREATE TABLE t(x)", "--create"], in: directory)
            #expect(create.status == 0, "\(create.errorOutput)")
            let first = try await ToolProcess.run(["check", "one.db"], in: directory)
            #expect(first.output.contains(", 1 transaction\n"), "\(first.output)")
            let insert = try await ToolProcess.run(["sql", "one.db", "INSERT INTO t VALUES (1)"], in: directory)
            #expect(insert.output == "ok (1 row changed)\n")
            let second = try await ToolProcess.run(["check", "one.db"], in: directory)
            #expect(second.output.contains(", 2 transactions\n"), "\(second.output)")
            #expect(!second.output.contains("1 rows") && !second.output.contains("1 transactions"))
        }
    }

    @Test func watchExplainsAQueryItCannotWatch() async throws {
        try await withTemporaryDirectory { directory in
            _ = try await ToolProcess.run(["sql", "w.db", "CREATE TABLE item(name TEXT)", "--create"], in: directory)
            let two = try await ToolProcess.run(["watch", "w.db", "SELECT 1; SELECT 2"], in: directory)
            #expect(two.status == 2)
            #expect(two.output.isEmpty)
            #expect(two.errorOutput.hasPrefix(
                "boutique watch: watch takes one query, but the text holds several statements: keep only the SELECT"))
            for leak in ["prepare", "execute", "SQLite error", "while running"] {
                #expect(!two.errorOutput.contains(leak), "\(leak) in \(two.errorOutput)")
            }
            let empty = try await ToolProcess.run(["watch", "w.db", " ; "], in: directory)
            #expect(empty.errorOutput.hasPrefix("boutique watch: the query is empty"))
            let typo = try await ToolProcess.run(["watch", "w.db", "SELEC name FROM item"], in: directory)
            #expect(typo.errorOutput.hasPrefix(#"boutique watch: the query does not compile: near "SELEC": syntax error"#))
            let write = try await ToolProcess.run(["watch", "w.db", "DELETE FROM item"], in: directory)
            #expect(write.errorOutput.hasPrefix("boutique watch: watch takes a query that reads rows (a SELECT)"))
        }
    }
}
