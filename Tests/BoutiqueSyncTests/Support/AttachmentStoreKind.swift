import BoutiqueSyncServer
import BoutiqueTestSupport
import Foundation
import Testing

/// The stores of attachments' bytes a server may keep, for tests that hold for each.
enum AttachmentStoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// ``FolderAttachmentStore``: a folder per tenant.
    case folder
    /// ``PostgreSQLAttachmentStore``: in the PostgreSQL store's database.
    case postgreSQL

    var testDescription: String { rawValue }

    /// Runs `body` with a new, empty store of this kind with these limits. Returns without running
    /// `body` for PostgreSQL when no server is configured.
    func withStore(
        maximumAttachmentBytes: Int64? = nil, tenantQuotaBytes: Int64? = nil, test: String = #function,
        _ body: (any SyncAttachmentStore) async throws -> Void
    ) async throws {
        switch self {
        case .folder:
            let directory = try SyncTemporaryDirectory()
            try await body(try FolderAttachmentStore(
                directory: directory.url, maximumAttachmentBytes: maximumAttachmentBytes, tenantQuotaBytes: tenantQuotaBytes))
            withExtendedLifetime(directory) {}
        case .postgreSQL:
            try await PostgreSQLTestDatabase.withFresh(test: test) { url in
                let store = try await PostgreSQLSyncStore.open(url: url)
                do {
                    try await body(try PostgreSQLAttachmentStore(
                        store: store, maximumAttachmentBytes: maximumAttachmentBytes, tenantQuotaBytes: tenantQuotaBytes))
                } catch {
                    await store.close()
                    throw error
                }
                await store.close()
            }
        }
    }
}
