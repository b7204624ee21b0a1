import BoutiqueDB
import BoutiqueSync
import Foundation

/// `boutique attachments list|put|get DB …`: the attachments of a database file.
enum AttachmentsCommand: Command {
    static let name = "attachments"
    static let summary = "list, store and read the attachments of a database file"
    static let help = """
        usage: boutique attachments list DB
               boutique attachments put DB FILE [--type TYPE]
               boutique attachments get DB ID --out FILE [--server URL (--token TOKEN | --token-file FILE) [--ca-file FILE]]

        Attachments are files a database's rows point at, kept beside the file in DB.attachments/ and
        named by the SHA-256 of their bytes.

          list   one line per attachment a row points at or the folder holds: ID BYTES TYPE STATE.
                 TYPE is `-` for bytes no row points at; STATE is `local` (the bytes are here),
                 `missing` (a row points at bytes that are not) or `damaged` (the file under the id
                 has another size).
          put    stores FILE (streamed: any size) and prints its id. --type is its content type
                 (default application/octet-stream). Bytes already stored are not stored twice.
          get    writes the bytes of ID to FILE, checked against ID before FILE appears. With
                 --server, bytes a row points at that are not in the folder are first fetched from
                 that sync server (in ranges, resumed where a killed run stopped, checked against ID)
                 and kept in the folder; bytes not uploaded there yet are an error that says so.
        """

    static func run(_ arguments: inout ArgumentParser) async throws {
        let action = try arguments.takePositional("an action (list, put or get)")
        guard ["list", "put", "get"].contains(action) else { throw UsageError("unknown action '\(action)': use list, put or get") }
        let path = try arguments.takePositional("DB")
        var file = "", id = "", type = "", out = ""
        var transport: HTTPSyncTransport?
        if action == "put" {
            file = try arguments.takePositional("FILE")
            type = try arguments.takeOption("--type") ?? "application/octet-stream"
        } else if action == "get" {
            id = try arguments.takePositional("ID")
            guard let given = try arguments.takeOption("--out") else { throw UsageError("--out FILE is required") }
            out = given
            guard Attachment.isValidID(id) else {
                throw UsageError("'\(id)' is not an attachment id (64 lowercase hexadecimal digits)")
            }
            if let serverText = try arguments.takeOption("--server") {
                guard let server = URL(string: serverText), ["http", "https"].contains(server.scheme?.lowercased() ?? ""), server.host != nil
                else { throw UsageError("--server takes an http:// or https:// address, not '\(serverText)'") }
                let token = try SecretArguments.token(&arguments)
                let trust = try CAFileArgument.trust(try arguments.takeOption("--ca-file"), server: server)
                transport = .http(server, token: token, trust: trust)
            }
        }
        try arguments.finish()
        let db = try await DatabaseFile.openShared(path)
        do {
            switch action {
            case "list": try await list(db)
            case "put": Output.line(try await db.attachments.store(contentsOf: URL(fileURLWithPath: file), contentType: type).id)
            default: try await get(id, from: db, to: out, server: transport)
            }
        } catch {
            await db.close()
            throw error
        }
        await db.close()
    }

    private static func list(_ db: BoutiqueDB) async throws {
        for entry in try await db.attachments.list() {
            Output.line("\(entry.id) \(entry.byteCount) \(entry.contentType ?? "-") \(entry.state)")
        }
    }

    /// Copies the bytes of `id` to `out`: the size comes from a row or the stored file, and the copy is
    /// checked against the id.
    private static func get(_ id: String, from db: BoutiqueDB, to out: String, server: HTTPSyncTransport?) async throws {
        guard let entry = try await db.attachments.list().first(where: { $0.id == id }) else {
            throw BoutiqueError.attachmentNotFound(id: id)
        }
        let attachment = try Attachment(id: id, byteCount: entry.byteCount, contentType: entry.contentType ?? "application/octet-stream")
        if let server, entry.state != .local {
            let received = try await AttachmentTransfer(transport: server, attachments: db.attachments).download(attachment)
            Output.line("fetched \(Plural.count(Int(received), "byte")) from \(server.url.absoluteString)")
        }
        try await db.attachments.copy(attachment, to: URL(fileURLWithPath: out))
        Output.line("wrote \(Plural.count(Int(entry.byteCount), "byte")) to \(out)")
    }
}
