// The HTTP front end is part of the package where GNU libmicrohttpd is installed; so are its tests.
#if BOUTIQUE_SYNC_HTTP
import BoutiqueSQLite
import BoutiqueSync
import BoutiqueSyncHTTP
import BoutiqueSyncServer
import Foundation
import Testing

/// A `SyncHTTPServer` given a ``SyncHTTPTLS`` serves HTTPS; devices reach it through a transport
/// trusting the authority that signed it (``SyncServerTrust``), and a started device stopped while its
/// pull waits over TLS lets go at once.
@MainActor @Suite struct TLSHTTPTests {
    @Test func devicesTrustingTheAuthoritySyncWithAnHTTPSServerAndStopWhileTheirPullWaits() async throws {
        let directory = try SyncTemporaryDirectory()
        try await TestCertificates.make(in: directory)
        let tls = try SyncHTTPTLS(certificateFile: directory.file("server.pem"), privateKeyFile: directory.file("server.key"))
        #expect(!tls.description.contains("PRIVATE"), "the key is not shown: \(tls)")
        let store = try await SQLiteSyncStore.open(url: BoutiqueDB.inMemoryURL())
        let signer = try SyncTokenSigner(secret: HTTPTestServer.secret)
        // Pulls may wait ten minutes: a device that did not let go when stopped would be seen hanging.
        let http = try SyncHTTPServer(
            server: SyncServer(store: store), signer: signer, options: SyncHTTPOptions(maximumWaitMilliseconds: 600_000), tls: tls)
        #expect(http.url.scheme == "https")
        let token = try signer.token(tenant: "acme", user: "ana", expiresAt: Date().addingTimeInterval(3_600))
        let trust = try SyncServerTrust.certificateAuthority(file: directory.file("ca.pem"))

        let first = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        let second = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        let pusher = try await BoutiqueSync(database: first, tables: ["note"], server: .http(http.url, token: token, trust: trust))
        try await first.write { conn in try conn.execute("INSERT INTO note(id, title) VALUES ('n1', 'over TLS')") }
        #expect(try await pusher.synchronize().pushed == 1)

        let follower = try await BoutiqueSync(
            database: second, tables: ["note"], server: .http(http.url, trust: trust, credentials: { @Sendable _ in token }),
            options: SyncOptions(pullWait: .seconds(600)))
        _ = try await follower.synchronize()
        #expect(try await second.read { conn in try conn.fetchValue("SELECT title FROM note WHERE id = 'n1'") } == .text("over TLS"))

        follower.start()
        let waiting = ContinuousClock.now + .seconds(syncHangDeadline(seconds: 60))
        while await !http.metricsText().contains("boutique_long_polls_waiting 1"), ContinuousClock.now < waiting {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(await http.metricsText().contains("boutique_long_polls_waiting 1"), "the follower's pull waits")
        let stopped = Lock(false)
        let stopping = Task { @MainActor in
            await follower.stop()
            stopped.withLock { $0 = true }
        }
        // A deadline only to see a hang: the pull would otherwise wait ten minutes.
        let stopDeadline = ContinuousClock.now + .seconds(syncHangDeadline(seconds: 60))
        while !stopped.withLock({ $0 }), ContinuousClock.now < stopDeadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(stopped.withLock { $0 }, "stopping the follower ends its waiting pull")
        await http.shutdown(gracePeriod: .seconds(2))
        await stopping.value
        await pusher.stop()
        await first.close()
        await second.close()
        await store.close()
    }

    /// Attachments move over HTTPS too: their requests are a `GET` of the upload's state and of
    /// ranges, and a `PUT` of each piece, not the `POST` every other request is.
    @Test func attachmentsUploadAndDownloadOverHTTPS() async throws {
        let directory = try SyncTemporaryDirectory()
        try await TestCertificates.make(in: directory)
        let tls = try SyncHTTPTLS(certificateFile: directory.file("server.pem"), privateKeyFile: directory.file("server.key"))
        let store = try await SQLiteSyncStore.open(url: BoutiqueDB.inMemoryURL())
        let signer = try SyncTokenSigner(secret: HTTPTestServer.secret)
        let http = try SyncHTTPServer(
            server: SyncServer(store: store), signer: signer, tls: tls,
            attachments: try FolderAttachmentStore(directory: directory.url.appendingPathComponent("attachments")))
        let token = try signer.token(tenant: "acme", user: "ana", expiresAt: Date().addingTimeInterval(3_600))
        let trust = try SyncServerTrust.certificateAuthority(file: directory.file("ca.pem"))

        let a = try await AttachmentSyncHTTPTests.device(), b = try await AttachmentSyncHTTPTests.device()
        let syncA = try await BoutiqueSync(database: a, tables: [SyncPhoto.self], server: .http(http.url, token: token, trust: trust))
        let syncB = try await BoutiqueSync(database: b, tables: [SyncPhoto.self], server: .http(http.url, token: token, trust: trust))
        // Larger than one piece each way, so that the upload resumes from the server's offset.
        let bytes = Data((0..<(9 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 11) })
        let image = try await a.attachments.store(bytes, contentType: "image/png")
        try await a.write { conn in try SyncPhoto.insert { SyncPhoto(id: "p1", caption: "Over TLS", image: image) }.execute(conn) }
        _ = try await syncA.synchronize()
        #expect(syncA.status.attachmentsWaitingToUpload == 0)
        #expect(syncA.status.attachmentsRefused == 0)
        _ = try await syncB.synchronize()
        try await syncB.attachments.fetch(image, waitingForUpload: false)
        #expect(try await b.attachments.data(for: image) == bytes)
        await http.shutdown(gracePeriod: .seconds(2))
        await a.close()
        await b.close()
        await store.close()
    }

    @Test func trustAndServerFilesRefuseWhatTheyCannotUse() throws {
        #expect(SyncServerTrust.system.isSystem)
        let directory = try SyncTemporaryDirectory()
        let notPEM = #expect(throws: BoutiqueError.self) { try SyncServerTrust.certificateAuthority(pem: "nothing here") }
        #expect("\(notPEM.map { "\($0)" } ?? "")".contains("holds no PEM certificate"))
        let key = "-----BEGIN PRIVATE KEY-----\nMAA=\n-----END PRIVATE KEY-----\n"
        let aKey = #expect(throws: BoutiqueError.self) { try SyncServerTrust.certificateAuthority(pem: key) }
        #expect("\(aKey.map { "\($0)" } ?? "")".contains("private key"))
        let notBase64 = #expect(throws: BoutiqueError.self) {
            try SyncServerTrust.certificateAuthority(pem: "-----BEGIN CERTIFICATE-----\n%%%\n-----END CERTIFICATE-----\n")
        }
        #expect("\(notBase64.map { "\($0)" } ?? "")".contains("not base64"))
        let missing = #expect(throws: BoutiqueError.self) {
            try SyncServerTrust.certificateAuthority(file: directory.file("absent.pem"))
        }
        #expect("\(missing.map { "\($0)" } ?? "")".contains("absent.pem"))
        let two = "-----BEGIN CERTIFICATE-----\nAQID\n-----END CERTIFICATE-----\n-----BEGIN CERTIFICATE-----\nBAUG\n-----END CERTIFICATE-----\n"
        #expect(try SyncServerTrust.certificateAuthority(pem: two).description.contains("2"))

        let certificate = "-----BEGIN CERTIFICATE-----\nAQID\n-----END CERTIFICATE-----\n"
        let swapped = #expect(throws: BoutiqueError.self) { try SyncHTTPTLS(certificatePEM: key, privateKeyPEM: key) }
        #expect("\(swapped.map { "\($0)" } ?? "")".contains("swapped"))
        let encrypted = "-----BEGIN ENCRYPTED PRIVATE KEY-----\nMAA=\n-----END ENCRYPTED PRIVATE KEY-----\n"
        let locked = #expect(throws: BoutiqueError.self) { try SyncHTTPTLS(certificatePEM: certificate, privateKeyPEM: encrypted) }
        #expect("\(locked.map { "\($0)" } ?? "")".contains("encrypted"))
    }
}
#endif
