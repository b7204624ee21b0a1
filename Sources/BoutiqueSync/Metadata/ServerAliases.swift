import BoutiqueDB

/// A row of `boutique_sync_server_alias`: an address (a transport's ``SyncTransport/serverIdentifier``)
/// and the server it was last found to reach (a ``SyncServerID/key``).
///
/// Progress with a server is kept under the server's identity once a reply has told it, so another
/// spelling of the same server's address reaches the same progress; this table finds it from the
/// address before any reply has come.
@Table("boutique_sync_server_alias")
struct ServerAlias: Sendable, Equatable {
    @Column(primaryKey: true) let address: String
    var server: String
}

extension ServerAlias {
    /// The server `address` was last found to reach, `nil` when no reply from it said.
    static func server(for address: String, _ sql: SQLRunner) throws -> String? {
        try find(address).select(\.server).fetchOne(sql.connection)
    }

    /// Records that `address` reaches `server`.
    static func record(address: String, server: String, _ sql: SQLRunner) throws {
        try upsert(onConflict: \.address) { ServerAlias(address: address, server: server) }.execute(sql.connection)
    }
}
