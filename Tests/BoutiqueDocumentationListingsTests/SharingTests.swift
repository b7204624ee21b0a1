import BoutiqueDocumentationListings
import Testing

@Suite struct SharingListingTests {
    @Test func aSharedListReachesTheMemberAndLeavesWhenUnshared() async throws {
        let result = try await Sharing.shareAList()
        #expect(result.members == ["ana owner", "bob editor", "kid viewer (not connected yet)"])
        #expect(result.shared == 1)
        #expect(result.afterUnshare == 0)
    }
}
