import BoutiqueDB
import BoutiqueSync
import Foundation

/// `boutique sync DB --server URL (--token TOKEN | --token-file FILE) --tables t1,t2 [--collaborative-text t.c,…]
/// [--follow]`: a database file as a device.
enum SyncCommand: Command {
    static let name = "sync"
    static let summary = "sync a database file's tables with a sync server"
    static let help = """
        usage: boutique sync DB --server URL (--token TOKEN | --token-file FILE) --tables t1,t2 [--follow]
                               [--collaborative-text table.column,…] [--ca-file FILE]
                               [--attachments on-demand|eager]

        Syncs the named tables of the database file DB with the server at URL (see `boutique serve`),
        as the user and tenant TOKEN names (see `boutique token`). The first run sets sync up in the
        file; every run pushes the file's local changes, then pulls until caught up, prints what moved,
        and exits 0 — also when the server refused some of the pushed transactions (a viewer's edit of a
        shared list, say): it says how many and why, with what the file had written, and the file has
        the server's version back. It also lists the file's changes that merging discarded (an edit
        another device overwrote without having seen it, say), with their values, and the rows another
        user moved to where this user does not see (taken off the file). With
        --follow it keeps going — pushing after each local commit, pulling as other
        devices push — until Ctrl-C. Synced tables need a text or blob primary key (a UUID, say).

        --collaborative-text note.body,… names TEXT columns merged character by character: two
        devices editing the same note body offline both keep their edits. Every device of the server
        must name the same columns (the server refuses one that names others).

        After the rows, a run uploads the bytes of every attachment a row of the file points at that
        the server does not hold whole yet (see `boutique attachments`), from where the server stands:
        a run killed half-way is resumed by the next, which sends only what is missing. An attachment
        the server refuses (larger than it takes, past the tenant's quota) is named with the reason,
        stays in the file, and the others go on. With
        --attachments eager it also downloads the attachments rows point at that are not in the file's
        folder (checked against their SHA-256); on-demand (the default) leaves them to
        `boutique attachments get`. One that cannot be fetched (the server refused it or sent other
        bytes) is named with the reason, the others go on, and the run exits 1 once they are done.

        The token can come from --token-file FILE (readable by its owner only: chmod 600 FILE) or the
        environment variable BOUTIQUE_SYNC_TOKEN instead, so that it is not on the command line, where
        other users of the machine can read it.

        \(CAFileArgument.help)
        """

    static func run(_ arguments: inout ArgumentParser) async throws {
        let follow = arguments.takeFlag("--follow")
        guard let serverText = try arguments.takeOption("--server") else { throw UsageError("--server is required") }
        let token = try SecretArguments.token(&arguments)
        guard let tablesText = try arguments.takeOption("--tables") else { throw UsageError("--tables is required") }
        let caFile = try arguments.takeOption("--ca-file")
        let collaborativeText = try arguments.takeOption("--collaborative-text")
        let attachmentsPolicy = try arguments.takeOption("--attachments") ?? "on-demand"
        guard ["on-demand", "eager"].contains(attachmentsPolicy) else {
            throw UsageError("--attachments takes on-demand or eager, not '\(attachmentsPolicy)'")
        }
        let path = try arguments.takePositional("DB")
        try arguments.finish()
        guard let server = URL(string: serverText), ["http", "https"].contains(server.scheme?.lowercased() ?? ""), server.host != nil else {
            throw UsageError("--server takes an http:// or https:// address, not '\(serverText)'")
        }
        let trust = try CAFileArgument.trust(caFile, server: server)
        let tables = tablesText.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !tables.isEmpty else { throw UsageError("--tables takes a comma-separated list of table names") }
        let collaborative = Set((collaborativeText ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
        if collaborativeText != nil, collaborative.isEmpty {
            throw UsageError("--collaborative-text takes a comma-separated list of table.column names")
        }

        let db = try await DatabaseFile.openShared(path)
        do {
            try await synchronize(
                db, server: server, token: token, trust: trust, tables: tables, options: SyncOptions(collaborativeText: collaborative), follow: follow)
            if !follow { try await moveAttachments(of: db, server: server, token: token, trust: trust, eager: attachmentsPolicy == "eager") }
        } catch {
            await db.close()
            throw error
        }
        await db.close()
    }

    @MainActor
    private static func synchronize(
        _ db: BoutiqueDB, server: URL, token: String, trust: SyncServerTrust, tables: [String], options: SyncOptions, follow: Bool
    ) async throws {
        let firstUse = try await db.read { conn in
            try conn.fetchValue("SELECT count(*) FROM sqlite_schema WHERE name = 'boutique_sync_replica'") == .integer(0)
        }
        let progress = SyncProgress()
        let transport = CountingTransport(base: .http(server, token: token, trust: trust), progress: progress)
        let sync = try await BoutiqueSync(database: db, tables: tables, server: transport, options: options)
        if let resumed = await sync.resumedBootstrapRows(), resumed > 0 {
            progress.resumeBootstrap(after: resumed)
            Output.line("resuming the bootstrap after \(Plural.count(resumed, "row"))")
        }
        if firstUse {
            Output.line("set up sync of \(tables.joined(separator: ", ")) with \(server.absoluteString) (replica \(await sync.replicaID))")
        }
        guard follow else {
            let start = ContinuousClock.now
            let report = try await sync.synchronize()
            let elapsed = (ContinuousClock.now - start).components
            progress.finishLine()
            // The rows a second of a bootstrap (a new device's first run, or one the server asked for):
            // what a user waits on when a device joins.
            if let summary = progress.bootstrapSummary(seconds: Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18) {
                Output.line(summary)
            }
            if let newServer = report.newServer {
                Output.line(
                    "\(server.absoluteString) is not the server this file last synced with there (now \(newServer)): downloaded its data anew")
            }
            Output.line(
                "pushed \(Plural.count(report.pushed, "change")), pulled \(Plural.count(report.applied, "change")); up to date with \(server.absoluteString)")
            let unread = await sync.takeUnreadReports()
            reportRefusals(progress.refusals, written: unread.refusals)
            reportLosses(unread.losses, departures: unread.departures)
            return
        }
        sync.start()
        Output.line("following \(server.absoluteString); Ctrl-C stops")
        let watcher = Task { await reportConnectivity(of: sync) }
        let signal = await Signals.termination()
        watcher.cancel()
        await sync.stop()
        progress.finishLine()
        Output.line(
            "\(Signals.name(signal)): stopped after pushing \(Plural.count(progress.changes(.push), "change")) and pulling \(Plural.count(progress.changes(.pull), "change"))")
        reportRefusals(progress.refusals)
    }

    /// Uploads the attachments the server lacks, and downloads the missing ones when `eager`.
    private static func moveAttachments(of db: BoutiqueDB, server: URL, token: String, trust: SyncServerTrust, eager: Bool) async throws {
        let round = try AttachmentRound(database: db, transport: .http(server, token: token, trust: trust))
        let uploaded = try await round.upload()
        if uploaded.attachments > 0 {
            Output.line("uploaded \(Plural.count(uploaded.attachments, "attachment")) (\(Plural.count(Int(uploaded.bytes), "byte")) sent)")
        }
        for (id, message) in uploaded.refused { Output.line("attachment \(id) refused by the server, kept in the file: \(message)") }
        guard eager else { return }
        let downloaded = try await round.download()
        if downloaded.fetched > 0 {
            Output.line("downloaded \(Plural.count(downloaded.fetched, "attachment")) (\(Plural.count(Int(downloaded.bytes), "byte")) received)")
        }
        for id in downloaded.notUploaded { Output.line("attachment \(id) is not uploaded yet; a later run fetches it") }
        for (id, error) in downloaded.failed { Output.line("attachment \(id) could not be fetched: \(error)") }
        if !downloaded.failed.isEmpty { throw AttachmentsNotFetched(count: downloaded.failed.count) }
    }

    /// Why an eager run exits 1 after its rows synced: attachments it named could not be fetched.
    struct AttachmentsNotFetched: Error, CustomStringConvertible {
        let count: Int
        var description: String { "\(Plural.count(count, "attachment")) could not be fetched (named above); the rows synced" }
    }

    /// Says how many pushed transactions the server refused, and why: their changes were undone in the
    /// file (the server's version put back), and sync went on.
    /// `written` are the refusals as sync reported them, with what the file had written: each
    /// transaction's values follow its line.
    private static func reportRefusals(_ refusals: [PushRefusal], written: [SyncRefusal] = []) {
        guard !refusals.isEmpty else { return }
        Output.line("refused \(Plural.count(refusals.count, "transaction")); undone in the file:")
        for refusal in refusals {
            Output.line("  transaction \(refusal.transactionID) (\(refusal.table) \(refusal.key)): \(refusal.message)")
            if let values = written.first(where: { $0.transactionID == refusal.transactionID })?.values, !values.isEmpty {
                Output.line("    written: \(describe(values))")
            }
        }
    }

    /// Says which of the file's changes merging discarded (with the values they had) and which rows
    /// another user moved out of what this user sees.
    private static func reportLosses(_ losses: [SyncLoss], departures: [SyncDeparture]) {
        if !losses.isEmpty {
            Output.line("\(Plural.count(losses.count, "change")) of this file lost while merging:")
            for loss in losses {
                Output.line("  \(loss.table) \(loss.key) (\(loss.kind.rawValue)): \(describe(loss.values))")
            }
        }
        if !departures.isEmpty {
            Output.line("\(Plural.count(departures.count, "row")) moved by another user to where this user does not see:")
            for departure in departures { Output.line("  \(departure.table) \(departure.key)") }
        }
    }

    /// `name = value, …` in name order.
    private static func describe(_ values: [String: DatabaseValue]) -> String {
        values.sorted { $0.key < $1.key }.map { "\($0.key) = \($0.value)" }.joined(separator: ", ")
    }

    /// Prints a line when the server stops answering and when it answers again, and when it refuses
    /// this device (sync then stops until it is started again).
    private static func reportConnectivity(of sync: BoutiqueSync) async {
        var offline = false
        var refused = false
        while !Task.isCancelled {
            let status = await sync.status
            if case .refused(let refusal) = status.activity, !refused {
                refused = true
                Output.error("refused: \(refusal.message); \(refusal.reason.stopsSync ? "sync stopped" : "retrying")")
            }
            if status.isOffline != offline {
                offline = status.isOffline
                if case .offline(let error) = status.activity {
                    Output.error("offline: \(error); retrying")
                } else {
                    Output.error("back online")
                }
            }
            try? await Task.sleep(for: .milliseconds(250))
        }
    }
}
