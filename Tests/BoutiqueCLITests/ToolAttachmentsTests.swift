import Foundation
import Testing

/// `boutique attachments list|put|get`, run as a child process on a real database file.
@Suite("boutique attachments")
struct ToolAttachmentsTests {
    /// The SHA-256 of `hello` (from `printf hello | sha256sum`).
    static let helloID = "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824"

    @Test func putListAndGetRoundTripTheBytes() async throws {
        try await withTemporaryDirectory { directory in
            let created = try await ToolProcess.run(
                ["sql", "app.db", "CREATE TABLE photo(id TEXT PRIMARY KEY, image TEXT)", "--create"], in: directory)
            #expect(created.status == 0, "\(created.errorOutput)")
            try Data("hello".utf8).write(to: directory.appendingPathComponent("hello.txt"))

            let put = try await ToolProcess.run(["attachments", "put", "app.db", "hello.txt", "--type", "text/plain"], in: directory)
            #expect(put.status == 0, "\(put.errorOutput)")
            #expect(put.output == Self.helloID + "\n")
            let again = try await ToolProcess.run(["attachments", "put", "app.db", "hello.txt"], in: directory)
            #expect(again.output == put.output, "the same bytes are the same attachment")

            // A stored file no row points at has no type; a row's value gives it one, and a row that
            // points at bytes that are not here is listed as missing.
            #expect(try await ToolProcess.run(["attachments", "list", "app.db"], in: directory).output == "\(Self.helloID) 5 - local\n")
            let missingID = String(repeating: "0", count: 64)
            let insert = try await ToolProcess.run(
                [
                    "sql", "app.db",
                    """
                    INSERT INTO photo VALUES ('a', '{"byteCount":5,"contentType":"text/plain","id":"\(Self.helloID)"}'),
                                             ('b', '{"byteCount":7,"contentType":"image/png","id":"\(missingID)"}')
                    """,
                ], in: directory)
            #expect(insert.status == 0, "\(insert.errorOutput)")
            let list = try await ToolProcess.run(["attachments", "list", "app.db"], in: directory)
            #expect(list.output == "\(missingID) 7 image/png missing\n\(Self.helloID) 5 text/plain local\n")

            let get = try await ToolProcess.run(["attachments", "get", "app.db", Self.helloID, "--out", "copy.txt"], in: directory)
            #expect(get.status == 0, "\(get.errorOutput)")
            #expect(try Data(contentsOf: directory.appendingPathComponent("copy.txt")) == Data("hello".utf8))

            let absent = try await ToolProcess.run(["attachments", "get", "app.db", missingID, "--out", "none.png"], in: directory)
            #expect(absent.status == 1)
            #expect(absent.errorOutput.contains("not on this device"), "\(absent.errorOutput)")
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("none.png").path))
        }
    }

    @Test func badIDsAndArgumentsAreRefusedWithoutTouchingFiles() async throws {
        try await withTemporaryDirectory { directory in
            _ = try await ToolProcess.run(["sql", "app.db", "CREATE TABLE t(x)", "--create"], in: directory)
            let traversal = try await ToolProcess.run(
                ["attachments", "get", "app.db", "../../etc/passwd", "--out", "passwd"], in: directory)
            #expect(traversal.status == 2)
            #expect(traversal.errorOutput.contains("is not an attachment id"), "\(traversal.errorOutput)")
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("passwd").path))

            let noOut = try await ToolProcess.run(["attachments", "get", "app.db", Self.helloID], in: directory)
            #expect(noOut.status == 2)
            #expect(noOut.errorOutput.contains("--out FILE is required"))
            let unknown = try await ToolProcess.run(["attachments", "remove", "app.db"], in: directory)
            #expect(unknown.status == 2)
            let missingFile = try await ToolProcess.run(["attachments", "put", "app.db", "absent.bin"], in: directory)
            #expect(missingFile.status == 1)
            #expect(missingFile.errorOutput.contains("absent.bin"), "\(missingFile.errorOutput)")
            let noDatabase = try await ToolProcess.run(["attachments", "list", "missing.db"], in: directory)
            #expect(noDatabase.status == 2)
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("missing.db").path))
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("app.db.attachments").path))
        }
    }
}
