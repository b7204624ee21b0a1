import Testing

@testable import BoutiqueDocumentationListings

/// The Models and Queries article says its reminders models do not sync and shows ones that do.
@Suite struct ModelsAndQueriesSyncTests {
    @Test func theArticlesModelsAreRefusedAndTheSyncedOnesSync() async throws {
        let refusal = try #require(try await SyncedReminders.refusalOfTheLocalModels(), "sync takes integer keys and a UNIQUE name")
        #expect(!refusal.reason.isEmpty, "\(refusal)")
        let tags = try await SyncedReminders.twoDevicesTagHome()
        #expect(tags.phone == ["home", "home"] && tags.laptop == ["home", "home"], "each device's tag \"home\" reaches the other")
    }
}
