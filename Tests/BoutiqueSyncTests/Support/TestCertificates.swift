import BoutiqueTestSupport
import Foundation

/// Certificates made with `openssl` at test time: a private authority (`ca.pem`, `ca.key`), a server
/// certificate it signed for IP 127.0.0.1 (`server.pem`, `server.key`), and a second authority that
/// signed nothing (`other-ca.pem`, `other-ca.key`). Keys are readable by their owner only.
enum TestCertificates {
    static func make(in directory: SyncTemporaryDirectory) async throws {
        func openssl(_ arguments: [String]) async throws {
            let exit = try await ChildProcess.run(executable: URL(fileURLWithPath: "/usr/bin/openssl"), arguments, in: directory.url)
            guard exit.status == 0 else { throw ChildProcessError("openssl \(arguments.joined(separator: " ")): \(exit.errors)") }
        }
        let p256 = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"]
        for authority in ["ca", "other-ca"] {
            try await openssl(
                ["req", "-x509"] + p256 + ["-days", "2", "-subj", "/CN=Test \(authority)", "-keyout", "\(authority).key", "-out", "\(authority).pem"])
        }
        try await openssl(["req"] + p256 + ["-subj", "/CN=127.0.0.1", "-keyout", "server.key", "-out", "server.csr"])
        try Data("subjectAltName=IP:127.0.0.1\n".utf8).write(to: directory.file("san.ext"))
        try await openssl([
            "x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-days", "2",
            "-extfile", "san.ext", "-out", "server.pem",
        ])
        for key in ["server.key", "ca.key", "other-ca.key"] {
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: directory.file(key).path)
        }
    }
}
