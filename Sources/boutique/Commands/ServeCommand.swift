import BoutiqueDB
import BoutiqueSyncServer
import Foundation

/// `boutique serve --port PORT --store FILE --secret-file FILE [--postgres URL]`: a sync server.
enum ServeCommand: Command {
    static let name = "serve"
    static let summary = "run a sync server devices reach over HTTP"
    static let help = """
        usage: boutique serve --port PORT --store FILE --secret-file FILE [--postgres URL] [--host ADDRESS]

        Serves the sync protocol over HTTP on ADDRESS:PORT (127.0.0.1 when --host is left out; 0.0.0.0
        for every interface; port 0 picks a free one) and prints `listening on http://ADDRESS:PORT` once
        devices can connect. Tenants' data is kept in the SQLite file FILE, or with --postgres in a
        PostgreSQL database (postgresql://user@host:port/db), which several servers can share. Devices
        authenticate with tokens from `boutique token --secret-file FILE`. Ctrl-C or SIGTERM stops it:
        requests in flight are finished first. Put TLS in front of it (a reverse proxy) beyond localhost.
        """

    static func run(_ arguments: inout ArgumentParser) async throws {
        guard let portText = try arguments.takeOption("--port") else { throw UsageError("--port is required") }
        guard let port = Int(portText), (0...65_535).contains(port) else { throw UsageError("--port takes 0…65535, not '\(portText)'") }
        let storePath = try arguments.takeOption("--store")
        guard let secretFile = try arguments.takeOption("--secret-file") else { throw UsageError("--secret-file is required") }
        let postgres = try arguments.takeOption("--postgres")
        let host = try arguments.takeOption("--host") ?? "127.0.0.1"
        try arguments.finish()
        guard storePath != nil || postgres != nil else { throw UsageError("--store FILE (or --postgres URL) is required") }

        let signer = try SyncTokenSigner(secretFile: URL(fileURLWithPath: secretFile))
        let store = try await ServerStore.open(sqlite: storePath, postgres: postgres)
        let http: SyncHTTPServer
        do {
            http = try SyncHTTPServer(server: SyncServer(store: store.store), signer: signer, host: host, port: port)
        } catch {
            await store.close()
            throw error
        }
        Output.line("listening on \(http.url.absoluteString)")
        let signal = await Signals.termination()
        Output.error("boutique serve: \(Signals.name(signal)): finishing \(http.requestsInFlight) request(s) in flight")
        await http.shutdown()
        await store.close()
        Output.error("boutique serve: stopped")
    }
}
