import BoutiqueSyncServer
import BoutiqueTestSupport
import Foundation
import Testing

/// A tenant's quota holds, in each store of attachments, whatever size a client announces: a size as
/// large as Int64 holds is refused, not added up past Int64's end, and uploads of one id announced at
/// several sizes, or by several users, all count.
@Suite struct AttachmentStoreQuotaTests {
    /// Any 64 lowercase hex digits name an attachment; the bytes are checked only once whole.
    static let id = String(repeating: "ab", count: 32)
    static let otherID = String(repeating: "cd", count: 32)

    @Test(arguments: AttachmentStoreKind.allCases)
    func theLargestAnnouncedSizeIsRefusedAndTheStoreGoesOn(_ kind: AttachmentStoreKind) async throws {
        try await kind.withStore(tenantQuotaBytes: 1_000) { store in
            // Something held already, so that the quota's sum has two terms.
            _ = try await store.append(Array(repeating: 1, count: 10), to: Self.otherID, byteCount: 100, at: 0, tenant: "acme", uploader: "ana")
            let refusal = await #expect(throws: AttachmentRefusal.self) {
                try await store.append([1], to: Self.id, byteCount: .max, at: 0, tenant: "acme", uploader: "ana")
            }
            #expect(refusal?.kind == .tooLarge && refusal?.reason.contains("quota of 1000") == true, "\(String(describing: refusal))")
            let state = try await store.append(Array(repeating: 2, count: 10), to: Self.otherID, byteCount: 100, at: 10, tenant: "acme", uploader: "ana")
            #expect(state.offset == 20)
        }
    }

    @Test(arguments: AttachmentStoreKind.allCases)
    func uploadsOfOneIDAtOtherSizesCountAgainstTheQuota(_ kind: AttachmentStoreKind) async throws {
        try await kind.withStore(tenantQuotaBytes: 1_000) { store in
            // Each upload stops short of its size, so each leaves its pieces behind.
            _ = try await store.append(Array(repeating: 1, count: 600), to: Self.id, byteCount: 900, at: 0, tenant: "acme", uploader: "ana")
            let refusal = await #expect(throws: AttachmentRefusal.self) {
                try await store.append(Array(repeating: 1, count: 600), to: Self.id, byteCount: 899, at: 0, tenant: "acme", uploader: "ana")
            }
            #expect(refusal?.kind == .tooLarge, "\(String(describing: refusal))")
            // The upload at its first size goes on.
            #expect(try await store.append(Array(repeating: 1, count: 100), to: Self.id, byteCount: 900, at: 600, tenant: "acme", uploader: "ana").offset == 700)
        }
    }

    @Test(arguments: AttachmentStoreKind.allCases)
    func uploadsOfOneIDByOtherUsersCountAgainstTheQuota(_ kind: AttachmentStoreKind) async throws {
        try await kind.withStore(tenantQuotaBytes: 1_000) { store in
            _ = try await store.append(Array(repeating: 1, count: 600), to: Self.id, byteCount: 900, at: 0, tenant: "acme", uploader: "ana")
            let refusal = await #expect(throws: AttachmentRefusal.self) {
                try await store.append(Array(repeating: 1, count: 600), to: Self.id, byteCount: 900, at: 0, tenant: "acme", uploader: "bob")
            }
            #expect(refusal?.kind == .tooLarge, "\(String(describing: refusal))")
            #expect(try await store.state(of: Self.id, byteCount: 900, tenant: "acme", uploader: "bob").offset == 0, "nothing of bob's was kept")
            #expect(try await store.append(Array(repeating: 1, count: 100), to: Self.id, byteCount: 900, at: 600, tenant: "acme", uploader: "ana").offset == 700)
        }
    }
}
