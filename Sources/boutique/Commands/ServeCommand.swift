import BoutiqueDB
import BoutiqueSyncServer
import Foundation

#if BOUTIQUE_SYNC_HTTP
import BoutiqueSyncHTTP
#endif

/// `boutique serve --port PORT (--store FILE | --store-dir DIR | --postgres URL | --postgres-url-file FILE) (--secret-file FILE | JWT key options)`:
/// a sync server.
enum ServeCommand: Command {
    static let name = "serve"
    static let summary = "run a sync server devices reach over HTTP"
    static let help = """
        usage: boutique serve --port PORT (--store FILE | --store-dir DIR | --postgres URL | --postgres-url-file FILE)
                              (--secret-file FILE | --jwks FILE | --jwks-url URL | --jwt-secret-file FILE)…
                              [--tenant-claim NAME | --tenant ID] [--jwt-audience AUD] [--jwt-issuer ISS]
                              [--host ADDRESS] [--rules FILE] [--log-format text|json] [--open-tenant-files N]
                              [--max-body-bytes N] [--max-wait DURATION] [--connection-limit N]
                              [--connections-per-address N] [--request-deadline DURATION]
                              [--response-deadline DURATION] [--unfinished-request-limit N]
                              [--unfinished-requests-per-address N] [--max-queued-response-bytes N]
                              [--retain DURATION] [--housekeeping-interval DURATION] [--drain DURATION]
                              [--metrics-port PORT] [--tls-cert FILE --tls-key FILE]
                              [--attachments DIR] [--max-attachment-bytes N] [--attachment-quota BYTES]

        Serves the sync protocol over HTTP on ADDRESS:PORT (127.0.0.1 when --host is left out; 0.0.0.0
        for every interface; port 0 picks a free one) and prints `listening on http://ADDRESS:PORT` once
        devices can connect. Tenants' data is kept in the SQLite file FILE (created readable by its
        owner only); with --store-dir in the directory DIR, a SQLite file per tenant (DIR/main.db holds
        the server's identity and the list of tenants, DIR/tenants/ a file per tenant named by the
        SHA-256 of its name), so that one tenant's large push never holds another's: at most
        --open-tenant-files N of them [64] are open at once, the least recently used idle one closed
        when another must open; or with --postgres in a PostgreSQL database
        (postgresql://user@host:port/db), which several servers can share. --postgres-url-file FILE
        reads that URL from FILE, and when no store is named the URL in the environment variable
        BOUTIQUE_POSTGRES_URL is used, so that a password need not be on the command line: --postgres with a URL that holds a password
        (postgresql://user:PASSWORD@host/db, ?password=, or password= in the key=value form) is refused,
        as every user of the machine can read a command line. Devices authenticate with tokens from
        `boutique token --secret-file FILE`. Ctrl-C or SIGTERM stops it (after --drain): it stops accepting
        connections, answers waiting pulls at once, closes each kept-alive connection after its answer,
        finishes the requests in flight (for up to 10 s) and exits 0; devices send again to the instance
        started in its place, and lose nothing. `boutique backup` copies a SQLite store while it serves.
        Beyond localhost devices need TLS: give --tls-cert and --tls-key, or put a reverse proxy in front.

        --tls-cert FILE --tls-key FILE (both or neither) serve HTTPS instead of HTTP, TLS 1.2 and 1.3 only
        (`listening on https://ADDRESS:PORT`; a plain-HTTP request is not answered). FILE are PEM: the
        certificate file holds the server's certificate, then any intermediate ones; the key file its
        unencrypted private key, readable by its owner only (chmod 600 FILE), as the secret file must be.
        A certificate or key that cannot be read, or a key that is not the certificate's, stops the start
        with the reason. Devices whose certificate authority is private give its certificate to
        `boutique sync --ca-file FILE` (and share, unshare, members). The metrics stay plain HTTP on
        127.0.0.1.

        The secret file, and a URL file, must be readable by their owner only (chmod 600 FILE); the
        secret must have at least 32 bytes and not be guessable: make it with
          (umask 077; openssl rand -base64 32 > FILE)

        Tokens from an identity provider (Auth0, Supabase, Keycloak, Cognito…) are taken beside the
        server's own, as JSON Web Tokens: --jwks FILE reads the provider's public keys from a JWK Set
        file; --jwks-url URL reads them from its URL at start, again every 10 minutes, and when a token
        names a key it does not know (at most once a minute); --jwt-secret-file FILE takes HS256 tokens
        signed with the secret in FILE (the rules of --secret-file apply). RS256 tokens are checked with
        the set's RSA keys, ES256 with its P-256 keys, HS256 with the secret only; any other algorithm,
        `none` included, is refused. A token's user is its `sub` claim, its tenant the claim
        --tenant-claim NAME names [tenant], or --tenant ID for every token of a single-tenant app; `exp`
        is required and checked, as `nbf` is, with 60 s leeway; --jwt-audience AUD and --jwt-issuer ISS
        require the token's `aud` to name AUD and its `iss` to be ISS. For example, with Auth0:
          --jwks-url https://TENANT.auth0.com/.well-known/jwks.json --jwt-issuer https://TENANT.auth0.com/
          --jwt-audience https://sync.example.com --tenant-claim https://example.com/tenant
        and with Supabase's HS256 tokens: --jwt-secret-file FILE --jwt-audience authenticated --tenant ID.
        A refused token is answered 401 with the check it failed (expired, not yet valid, wrong audience,
        wrong issuer, unknown key, bad signature, unsupported algorithm, malformed), never the token.

        GET /healthz answers 200 while the server runs; GET /readyz answers 200 when the store answers a
        read, and 503 when it does not or once SIGTERM was received: --drain DURATION keeps serving for
        that long after SIGTERM, with /readyz at 503, so that a load balancer stops sending devices
        first [0]. --metrics-port PORT serves Prometheus metrics at http://127.0.0.1:PORT/metrics (on
        127.0.0.1 only; port 0 picks one, printed as `metrics on …`).

        It logs one line per request to standard error (time, client address, method, path, status,
        tenant, user, bytes in and out, duration, request id), and one per refused token (why, never the
        token), per store failure (the error, which clients are not shown) and per connection closed for
        being too slow; --log-format json writes each as a JSON object.

        Limits (defaults in brackets): --max-body-bytes N, the largest request body [16777216];
        --max-wait DURATION, the longest a pull waits for changes [30s]; --connection-limit N, the most
        connections open at once [1000, at most the open-file limit less 64]; --connections-per-address N,
        the most from one client address [1000; behind a proxy all come from its address];
        --request-deadline DURATION, the time a client has to send a whole request, head and body [60s];
        --response-deadline DURATION, the time a client has to read a whole answer [60s];
        --unfinished-request-limit N, the most connections that have not sent a whole request (opening,
        sending slowly, or idle between requests) [500, at most half the connection limit; a new one past
        it closes the oldest of the address holding the most]; --unfinished-requests-per-address N, the
        most of those from one address [32; a new one past it closes that address's oldest]; and
        --max-queued-response-bytes N, the most bytes of answers waiting for their clients to read them
        [134217728; a pull whose answer would pass it is answered 503, to be asked again].

        --rules FILE shares rows between users by the sync rules in the JSON file FILE, for example
          {"roots": ["remindersList"], "follows": {"reminder": "listID"}, "private": ["tag"]}
        (each remindersList row is a space its creator shares with `boutique share`; reminders live in
        their list's space; tags are private to their writer; other tables are the tenant's). Rules are
        checked against the tables each tenant's devices describe: when a follower's column is not in its
        table, followers form a cycle, or the rules name a table those devices do not sync while they
        sync one no rule names (a misspelt name, say), the server places none of that tenant's pushed
        rows (rather than put them in the space every user of the tenant sees). Such a push is answered 503 with the code rules-mismatch and logged
        (event rules-mismatch, with the tenant and what does not match); devices keep their changes,
        keep pulling and push again later. Other tenants are served as usual, and a start prints a
        warning for each tenant the rules do not match. Fix the rules and start again: the waiting
        changes are placed then. A root row whose space has no owner (one inserted by trusted code)
        gets one with `boutique owner`. Without rules every user of a tenant sees every row.

        --retain DURATION (90m, 12h, 30d, 2w, or seconds; default 30d) is how long a device may stay away
        and still resume where it was: ten minutes after start and then hourly, the server removes the log
        entries and deleted rows' tombstones that every device seen within DURATION has pulled past, and
        prints what it removed on stderr, with the attachments' bytes no row has pointed at for DURATION
        (never bytes a row points at, nor an upload that moved within DURATION). A device away longer
        bootstraps again when it returns.
        --housekeeping-interval DURATION (default 1h) is the time between these rounds; the first runs
        ten minutes after start, or after DURATION when that is shorter.

        Attachments (files rows point at, by the SHA-256 of their bytes) are kept in the folder
        --attachments DIR, by default beside the store: FILE.attachments/ for --store FILE,
        DIR/attachments/ for --store-dir DIR, a subfolder per tenant; with --postgres, in the PostgreSQL
        database itself, where every instance sees them, unless --attachments names a folder. Devices
        upload them in pieces and resume where the server stands after a lost connection or a restart;
        the server checks the whole file against its SHA-256 before anyone can read it. A user reads an
        attachment when a row they can see points at it (by the --rules, as their pulls) or they uploaded
        it; anyone else gets 404. --max-attachment-bytes N is the largest attachment taken,
        --attachment-quota BYTES the most a tenant's attachments may take [no limits]; past either an
        upload is answered 413 with the reason, and nothing is stored.

        It needs the HTTP front end, which is built where GNU libmicrohttpd is installed
        (Debian: `sudo apt-get install libmicrohttpd-dev`; macOS: `brew install libmicrohttpd`).
        """

    static func run(_ arguments: inout ArgumentParser) async throws {
        guard let portText = try arguments.takeOption("--port") else { throw UsageError("--port is required") }
        guard let port = Int(portText), (0...65_535).contains(port) else { throw UsageError("--port takes 0…65535, not '\(portText)'") }
        let store = try ServerStore.Location.take(&arguments)
        let authentication = try ServeAuthentication(&arguments)
        let operations = try ServeOperations(&arguments)
        let tls = try ServeTLS.take(&arguments)
        let openTenantFiles = try arguments.takeOption("--open-tenant-files").map { text in
            guard let count = Int(text), count >= 1 else { throw UsageError("--open-tenant-files takes a number of at least 1, not '\(text)'") }
            guard case .directory? = store else { throw UsageError("--open-tenant-files goes with --store-dir DIR") }
            return count
        } ?? SQLiteTenantFilesStore.defaultOpenFileLimit
        let host = try arguments.takeOption("--host") ?? "127.0.0.1"
        let rulesFile = try arguments.takeOption("--rules")
        let logFormatText = try arguments.takeOption("--log-format") ?? "text"
        guard let logFormat = SyncRequestLogFormat(rawValue: logFormatText) else {
            throw UsageError("--log-format takes text or json, not '\(logFormatText)'")
        }
        let limits = try ServeLimits(&arguments)
        let attachmentFlags = try ServeAttachments(&arguments)
        let retention = try arguments.takeOption("--retain").map { Duration.seconds(try DurationText.seconds($0, option: "--retain")) }
            ?? SyncHousekeeping.defaultRetention
        try arguments.finish()
        guard let store else { throw UsageError(ServerStore.Location.missing) }
        let attachments = attachmentFlags
        #if BOUTIQUE_SYNC_HTTP
        try await serve(
            store: store, openTenantFiles: openTenantFiles, authentication: authentication, operations: operations, host: host,
            port: port, tls: tls, rulesFile: rulesFile, logFormat: logFormat, limits: limits, retention: retention, attachments: attachments)
        #else
        _ = (store, openTenantFiles, authentication, operations, host, port, tls, rulesFile, logFormat, limits, retention, attachments)
        throw MissingHTTPFrontEnd()
        #endif
    }

    #if BOUTIQUE_SYNC_HTTP
    @MainActor
    private static func serve(
        store location: ServerStore.Location, openTenantFiles: Int, authentication: ServeAuthentication, operations: ServeOperations,
        host: String, port: Int, tls tlsFiles: ServeTLS?, rulesFile: String?, logFormat: SyncRequestLogFormat, limits: ServeLimits,
        retention: Duration, attachments attachmentFlags: ServeAttachments
    ) async throws {
        // Everything the server creates from here on — the SQLite store (or the directory of them) and
        // its -wal and -shm files, which hold every tenant's data — is its owner's alone. (SQLite gives a new -wal and -shm the
        // store file's own mode.)
        umask(0o077)
        // Connections are file descriptors: not 1,024 at most when the system allows more.
        SyncHTTPServer.raiseOpenFileLimit()
        // Read first: a certificate or key that is wrong stops the start before anything opens.
        let tls = try tlsFiles.map {
            try SyncHTTPTLS(certificateFile: URL(fileURLWithPath: $0.certificateFile), privateKeyFile: URL(fileURLWithPath: $0.keyFile))
        }
        let tokens = try await authentication.make()
        let rules = try rulesFile.map(readRules)
        let store = try await ServerStore.open(location, openTenantFiles: openTenantFiles)
        let http: SyncHTTPServer
        let housekeeping: SyncHousekeeping
        do {
            let server = SyncServer(store: store.store, rules: rules)
            let attachments = try attachmentFlags.store(beside: location, opened: store.store)
            // A tenant whose devices describe tables the rules do not match is that tenant's problem,
            // said here; the others are served as before.
            for (tenant, problem) in try await server.checkRules().sorted(by: { $0.key < $1.key }) {
                Output.error("warning: tenant '\(tenant)': \(problem); its devices' pushes are not placed until the rules match (its pulls are served)")
            }
            let log = SyncRequestLog.standardError(format: logFormat.format)
            http = try SyncHTTPServer(
                server: server, authentication: tokens, host: host, port: port, options: limits.options, tls: tls, log: log,
                attachments: attachments)
            housekeeping = SyncHousekeeping(
                server: server, retention: retention, interval: operations.housekeepingInterval,
                firstRoundAfter: operations.firstHousekeepingRound, attachments: attachments
            ) { [http] event in
                http.recordHousekeeping(event)
                log.note("housekeeping", message: "\(event)")
            }
            if let metricsPort = operations.metricsPort { Output.line("metrics on \(try http.serveMetrics(port: metricsPort).absoluteString)") }
        } catch {
            await store.close()
            throw error
        }
        if let rulesFile { Output.line("sharing by the rules in \(rulesFile)") }
        Output.line("listening on \(http.url.absoluteString)")
        await housekeeping.start()
        let signal = await Signals.termination()
        http.beginDraining()
        if operations.drainSeconds > 0 {
            Output.error("boutique serve: \(Signals.name(signal)): draining for \(operations.drainSeconds) s (/readyz answers 503)")
            try? await Task.sleep(for: .seconds(operations.drainSeconds))
        }
        Output.error("boutique serve: \(Signals.name(signal)): finishing \(http.requestsInFlight) request(s) in flight")
        await tokens.jwt?.stop()
        await housekeeping.stop()
        await http.shutdown()
        // What devices pulled to since the last write, so that the next start's collection knows it.
        do { try await http.server.writePullCursors() } catch { Output.error("boutique serve: could not write pull positions: \(error)") }
        await store.close()
        Output.error("boutique serve: stopped")
    }
    #endif

    /// The rules in `path`, or a message naming what is wrong with them.
    private static func readRules(_ path: String) throws -> SyncRules {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw BoutiqueError.invalidArgument("cannot read the rules file \(path): \(error.localizedDescription)")
        }
        guard data.count <= 1_048_576 else { throw BoutiqueError.invalidArgument("the rules file \(path) is larger than 1 MB") }
        do {
            return try JSONDecoder().decode(SyncRules.self, from: data)
        } catch let DecodingError.dataCorrupted(context) {
            throw BoutiqueError.invalidArgument("the rules in \(path) are refused: \(context.debugDescription)")
        } catch {
            throw BoutiqueError.invalidArgument(
                "the rules in \(path) are not rules of the form {\"roots\": [...], \"follows\": {...}, \"private\": [...]}: \(error)")
        }
    }
}
