import BoutiqueSync
@testable import BoutiqueSyncServer
import Foundation
import Testing

/// Tenant and user names have one spelling: refused when empty, over 256 bytes, holding a control
/// character or not in Unicode NFC — when a token is made, when one is verified, and when a member is
/// named — and compared as bytes everywhere after.
@Suite struct SyncNameTests {
    static let secret = Array("a test secret of at least sixteen bytes".utf8)
    /// "José" with a precomposed é, and with an e and a combining acute accent: canonically
    /// equivalent, so `==` says they are equal, but other bytes.
    static let composed = "Jos\u{E9}"
    static let decomposed = "Jose\u{301}"

    static let refusedNames: [(label: String, name: String, says: String)] = [
        ("empty", "", "empty"),
        ("newline", "ana\nadmin", "U+A"),
        ("NUL", "ana\u{0}", "U+0"),
        ("delete", "ana\u{7F}", "U+7F"),
        ("line separator", "ana\u{2028}", "U+2028"),
        ("257 bytes", String(repeating: "a", count: 257), "257 bytes"),
        ("not NFC", decomposed, "NFC"),
    ]

    /// A token signed with the secret whose claims are whatever `tenant` and `user` are: as other
    /// code (or an older version) could have made it.
    static func craftedToken(tenant: String, user: String, secret: [UInt8] = secret) throws -> String {
        let claims = try JSONSerialization.data(withJSONObject: ["tenant": tenant, "user": user, "expiresAt": 4_000_000_000])
        let signed = SyncToken.prefix + "." + Base64.encodeURLSafe(Array(claims))
        return signed + "." + Base64.encodeURLSafe(try HMACSHA256.authenticationCode(key: secret, message: Array(signed.utf8)))
    }

    @Test func aTokenIsNotMadeForANameWithoutOneSpelling() throws {
        let signer = try SyncTokenSigner(secret: Self.secret)
        let expiry = Date().addingTimeInterval(3_600)
        for (label, name, says) in Self.refusedNames {
            for (tenant, user) in [(name, "ana"), ("acme", name)] {
                #expect(throws: BoutiqueError.self, "\(label)") { _ = try signer.token(tenant: tenant, user: user, expiresAt: expiry) }
                do {
                    _ = try signer.token(tenant: tenant, user: user, expiresAt: expiry)
                } catch let BoutiqueError.invalidArgument(message) {
                    #expect(message.contains(says), "\(label): \(message)")
                }
            }
        }
        for name in [Self.composed, String(repeating: "a", count: 256), "ana.smith@example.com", "名前"] {
            let token = try signer.token(tenant: "acme", user: name, expiresAt: expiry)
            #expect(try signer.verify(token).user == name)
        }
    }

    @Test func aSignedTokenNamingANameWithoutOneSpellingIsRefused() throws {
        let signer = try SyncTokenSigner(secret: Self.secret)
        #expect(try signer.verify(try Self.craftedToken(tenant: "acme", user: "ana")).user == "ana", "the crafted form is a real token")
        for (label, name, says) in Self.refusedNames {
            for (tenant, user) in [(name, "ana"), ("acme", name)] {
                let token = try Self.craftedToken(tenant: tenant, user: user)
                do {
                    let claims = try signer.verify(token)
                    Issue.record("\(label): verified as \(claims)")
                } catch let BoutiqueError.syncRefused(reason) {
                    #expect(reason.contains(says), "\(label): \(reason)")
                }
            }
        }
    }

    @Test func spacesAreTheSameOnlyWhenTheirBytesAre() {
        let composed = SyncSpace.private(user: Self.composed)
        let decomposed = SyncSpace.private(user: Self.decomposed)
        #expect(Self.composed == Self.decomposed, "String's == takes canonical equivalents for equal")
        #expect(composed != decomposed)
        #expect(Set([composed, decomposed]).count == 2)
        #expect(Set([composed, SyncSpace.private(user: "Jos" + "\u{E9}")]).count == 1)
        var roles = [composed: 1]
        roles[decomposed] = 2
        #expect(roles.count == 2 && roles[composed] == 1)
    }

    /// Another spelling of a user's name is another user to every check: writing into the private
    /// space of "José" takes the same bytes as reading it does.
    @Test(arguments: StoreKind.allCases)
    func anotherSpellingOfAUsersNameCannotWriteTheirPrivateRows(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let server = SyncServer(store: store, rules: try SpacesSchema.rules())
            func push(_ user: String, replica: String, title: String) async throws -> PushResponse {
                let stamp = SyncStamp(time: HybridTimestamp(milliseconds: UInt64(Date().timeIntervalSince1970 * 1000)), replica: replica)
                let change = SyncChange(
                    table: "tag", key: .text("t1"), kind: .insert, columns: [SyncColumnValue(name: "name", value: .text(title))], stamp: stamp)
                var request = PushRequest(
                    replica: replica, baseTransactionID: 0, baseDigest: nil, schemaVersion: 1,
                    transactions: [SyncTransaction(id: 1, stamp: stamp, changes: [change])])
                request.replicaSecret = replica
                return try await server.push(request, tenant: "t", user: user)
            }
            #expect(try await push(Self.composed, replica: "josé-1", title: "mine").refusals == nil)
            let other = try await push(Self.decomposed, replica: "other-1", title: "overwritten")
            #expect(other.outcome == .accepted && other.refusals?.count == 1, "the other spelling's write is refused")
            let state = try await store.transaction(tenant: "t") { store in try store.rowState(table: "tag", key: .text("t1")) }
            #expect(state?.cells["name"]?.value == .text("mine"))
            // Reads agree: the private row is the composed name's only.
            let mine = try await server.snapshot(SnapshotRequest(replica: "josé-1", after: nil, limit: 10), tenant: "t", user: Self.composed)
            let theirs = try await server.snapshot(SnapshotRequest(replica: "other-1", after: nil, limit: 10), tenant: "t", user: Self.decomposed)
            #expect(mine.rows.count == 1 && theirs.rows.isEmpty)
        }
    }

    /// Sharing names a user the way a token does: a name no token may carry is refused, and nothing changes.
    @Test(arguments: StoreKind.allCases)
    func aMemberIsNamedTheWayATokenNamesAUser(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            var app = try await SharedReminders(store: store)
            try await app.add("ana")
            try await SharingTests.anasList(app)
            let server = app.server
            for (label, name, says) in Self.refusedNames {
                let shared = try await server.membership(
                    MembershipRequest(table: "remindersList", key: .text("L1"), user: name, role: .editor), action: .share,
                    tenant: "default", user: "ana")
                #expect(shared.refusal == .invalid && shared.reason?.contains(says) == true, "\(label): \(shared.reason ?? "")")
                let unshared = try await server.membership(
                    MembershipRequest(table: "remindersList", key: .text("L1"), user: name), action: .unshare, tenant: "default", user: "ana")
                #expect(unshared.refusal == .invalid, "\(label)")
                await #expect(throws: BoutiqueError.self, "\(label)") {
                    try await server.setMember(name, role: .viewer, table: "remindersList", key: .text("L1"), tenant: "default")
                }
            }
            let members = try await server.membership(
                MembershipRequest(table: "remindersList", key: .text("L1")), action: .members, tenant: "default", user: "ana")
            #expect(members.members.map(\.user) == ["ana"], "nobody was added")
            // The composed name is a member; its other spelling is not the owner, nor that member.
            let added = try await server.membership(
                MembershipRequest(table: "remindersList", key: .text("L1"), user: Self.composed, role: .viewer), action: .share,
                tenant: "default", user: "ana")
            #expect(added.members.map(\.user) == ["ana", Self.composed])
            let asOther = try await server.membership(
                MembershipRequest(table: "remindersList", key: .text("L1")), action: .members, tenant: "default", user: Self.decomposed)
            #expect(asOther.refusal == .forbidden)
            await app.close()
        }
    }

    /// A member stored under another spelling before names had one (by an older server) can still be
    /// removed, by the bytes it was stored with; it cannot be shared with again.
    @Test(arguments: StoreKind.allCases)
    func aMemberStoredUnderAnotherSpellingCanStillBeRemoved(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            var app = try await SharedReminders(store: store)
            try await app.add("ana")
            try await SharingTests.anasList(app)
            let server = app.server
            let space = SyncSpace.shared(table: "reminderslist", key: .text("L1"))
            try await store.transaction(tenant: "default") { store in
                try store.setMember(Self.decomposed, role: .viewer, in: space, sequence: try store.reserveSequence())
                try store.setMember("bob\n", role: .viewer, in: space, sequence: try store.reserveSequence())
            }
            func members() async throws -> [String] {
                try await server.membership(
                    MembershipRequest(table: "remindersList", key: .text("L1")), action: .members, tenant: "default", user: "ana"
                ).members.map(\.user)
            }
            #expect(try await members() == ["ana", Self.decomposed, "bob\n"])
            let reshared = try await server.membership(
                MembershipRequest(table: "remindersList", key: .text("L1"), user: Self.decomposed, role: .editor), action: .share,
                tenant: "default", user: "ana")
            #expect(reshared.refusal == .invalid)
            let removed = try await server.membership(
                MembershipRequest(table: "remindersList", key: .text("L1"), user: Self.decomposed), action: .unshare,
                tenant: "default", user: "ana")
            #expect(removed.refusal == nil && removed.members.map(\.user) == ["ana", "bob\n"], "\(removed)")
            #expect(!removed.members.contains { SyncName.same($0.user, Self.decomposed) })
            try await server.setMember("bob\n", role: nil, table: "remindersList", key: .text("L1"), tenant: "default")
            #expect(try await members() == ["ana"])
            await app.close()
        }
    }
}
