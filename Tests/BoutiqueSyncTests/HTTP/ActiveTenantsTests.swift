// The HTTP front end is part of the package where GNU libmicrohttpd is installed; so are its tests.
#if BOUTIQUE_SYNC_HTTP
@testable import BoutiqueSyncHTTP
import Foundation
import Testing

/// `boutique_tenants_active` keeps the tenants seen lately, not every name a token ever carried.
@Suite struct ActiveTenantsTests {
    @Test func tenantsPastTheWindowAreDroppedAsOthersAreSeen() {
        let start = ContinuousClock.now
        var tenants = ActiveTenants(window: .seconds(600), limit: 1_000_000)
        for index in 0..<5_000 { tenants.saw("old-\(index)", at: start) }
        let later = start + .seconds(601)
        // Never counted in between (no metrics scrape): the new names alone prune the old ones.
        for index in 0..<5_000 { tenants.saw("new-\(index)", at: later) }
        #expect(tenants.keptCount <= 5_000 + 1_024, "\(tenants.keptCount) kept")
        #expect(tenants.count(at: later) == 5_000)
        #expect(tenants.count(at: later + .seconds(600)) == 0)
        #expect(tenants.keptCount == 0)
    }

    @Test func atMostTheLimitIsKeptAndTheLatestStay() {
        let start = ContinuousClock.now
        var tenants = ActiveTenants(window: .seconds(600), limit: 2_000)
        for index in 0..<10_000 { tenants.saw("t\(index)", at: start + .milliseconds(index)) }
        #expect(tenants.keptCount <= 2_000)
        #expect(tenants.count(at: start + .seconds(10)) >= 1_500)
        tenants.saw("t9999", at: start + .seconds(100))
        tenants.saw("t0", at: start + .seconds(100))
        #expect(tenants.count(at: start + .seconds(650)) == 2, "those seen since are kept")
    }

    /// Through the server: a tenant's authenticated request counts it, and the metric reads it.
    @Test func theGaugeCountsTenantsOfAuthenticatedRequests() async throws {
        let server = try await HTTPTestServer()
        for tenant in ["a", "b", "a"] {
            _ = try await RawHTTP.send(server.http.url, "v1/pull", token: try server.token(tenant: tenant), body: Data("{}".utf8))
        }
        #expect(await server.http.metricsText().contains("boutique_tenants_active 2\n"))
        await server.stop()
    }
}
#endif
