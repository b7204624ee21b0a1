import BoutiqueSync
import BoutiqueSyncServer
import Foundation
import Testing

/// The server's operator gives a root row's space an owner (`makeOwner`, `boutique owner`) and lists
/// its members (`members(table:key:tenant:)`, `boutique members --store`): keys matched as the store
/// holds them, mistakes refused with what is wrong and nothing changed.
@Suite struct OperatorOwnershipTests {
    static func invalidArgument(_ body: () async throws -> some Any) async -> String? {
        do {
            _ = try await body()
            Issue.record("accepted")
            return nil
        } catch {
            guard case BoutiqueError.invalidArgument(let reason) = error else {
                Issue.record("not an invalid argument: \(error)")
                return nil
            }
            return reason
        }
    }

    @Test(arguments: StoreKind.allCases) func aListImportedByTrustedCodeGetsAnOwnerByItsKeyInAnyCase(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            var app = try await SharedReminders(store: store)
            let server = app.server
            let list = UUID()
            // Trusted code imports a list with a reminder: nobody owns the list, so nobody may share it.
            try await app.add("importer", through: .inProcess(server))
            try await app.write("importer", "INSERT INTO remindersList(id, title) VALUES ('\(list.uuidString.lowercased())', 'Imported')")
            try await app.write("importer", "INSERT INTO reminder(id, listID, title) VALUES ('r1', '\(list.uuidString.lowercased())', 'Milk')")
            _ = try await app.sync("importer").synchronize()
            #expect(try await server.members(table: "remindersList", key: .text(list.uuidString), tenant: "default").isEmpty)
            try await app.add("ana")
            try await app.add("bob")
            _ = try await app.sync("ana").synchronize()
            #expect(try await app.rows("ana", "reminder").isEmpty)

            // The operator types the key as `uuidString` writes it.
            let owned = try await server.makeOwner("ana", table: "RemindersList", key: .text(list.uuidString), tenant: "default")
            #expect(owned.map(\.description) == ["ana owner"])
            _ = try await app.sync("ana").synchronize()
            #expect(try await app.rows("ana", "reminder").map { $0[0] } == ["r1"])
            _ = try await app.sync("ana").share("remindersList", key: .text(list.uuidString.lowercased()), with: "bob", role: .viewer)
            // Another owner: the one it had stays, as an editor; the same owner again changes nothing.
            let moved = try await server.makeOwner("bob", table: "remindersList", key: .text(list.uuidString.lowercased()), tenant: "default")
            #expect(moved == [SyncMember(user: "bob", role: .owner), SyncMember(user: "ana", role: .editor)])
            #expect(try await server.makeOwner("bob", table: "remindersList", key: .text(list.uuidString), tenant: "default") == moved)
            try await app.syncAll(["ana", "bob"])
            #expect(try await app.rows("bob", "reminder").map { $0[0] } == ["r1"])
            #expect(try await app.sync("bob").members(of: "remindersList", key: .text(list.uuidString)).map(\.description) == ["bob owner", "ana editor"])

            // Mistakes say what is wrong and change nothing.
            let key = DatabaseValue.text(list.uuidString)
            let mistakes: [(String, () async throws -> [SyncMember])] = [
                ("no tenant 'acme'", { try await server.makeOwner("cleo", table: "remindersList", key: key, tenant: "acme") }),
                ("no synced table 'reminderslists'", { try await server.makeOwner("cleo", table: "remindersLists", key: key, tenant: "default") }),
                ("no row with key", { try await server.makeOwner("cleo", table: "remindersList", key: .text(UUID().uuidString), tenant: "default") }),
                ("not a space of its own", { try await server.makeOwner("cleo", table: "reminder", key: .text("r1"), tenant: "default") }),
                ("user", { try await server.makeOwner("", table: "remindersList", key: key, tenant: "default") }),
                ("no row with key", { try await server.members(table: "remindersList", key: .text("L9"), tenant: "default") }),
            ]
            for (expected, mistake) in mistakes {
                let reason = await Self.invalidArgument(mistake)
                #expect(reason?.contains(expected) == true, "\(reason ?? "")")
            }
            // A deleted list has no space to own.
            try await app.write("bob", "DELETE FROM remindersList")
            _ = try await app.sync("bob").synchronize()
            let deleted = await Self.invalidArgument { try await server.makeOwner("cleo", table: "remindersList", key: key, tenant: "default") }
            #expect(deleted?.contains("no row with key") == true, "\(deleted ?? "")")
            #expect(try await store.tenants() == ["default"])
            await app.close()
        }
    }
}
