import BoutiqueSync
import BoutiqueSyncServer
import Foundation
import Testing

/// A reminder as the shared-lists schema declares it (`reminder.listID`), for decoding what sync reports.
@Table("reminder")
struct ListReminder: Sendable, Equatable {
    @Column(primaryKey: true) let id: String
    var listID: String
    var title: String
}

/// What the device of a user who loses access reports: the values of refused offline work, and rows
/// others moved away.
@Suite struct AccessLossReportTests {
    @Test(arguments: StoreKind.allCases) func workRefusedAfterAnUnshareCarriesItsValues(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            var app = try await SharedReminders(store: store)
            try await app.add("ana")
            try await app.add("bob")
            try await SharingTests.anasList(app)
            try await app.sync("ana").share("remindersList", key: .text("L1"), with: "bob", role: .editor)
            try await app.syncAll(["ana", "bob"])
            // Bob works offline while Ana unshares.
            try await app.write("bob", """
                INSERT INTO reminder(id, listID, title) VALUES ('r9', 'L1', 'Butter');
                UPDATE reminder SET title = 'Oat milk' WHERE id = 'r1';
                """)
            try await app.sync("ana").unshare("remindersList", key: .text("L1"), with: "bob")
            _ = try? await app.sync("bob").synchronize()
            let refusals = await app.sync("bob").takeReportedRefusals()
            #expect(refusals.count == 1)
            let refusal = try #require(refusals.first)
            #expect(refusal.reason == .forbidden)
            #expect(refusal.table == "reminder")
            #expect(refusal.values["title"] != nil, "what Bob wrote comes back with the refusal")
            let mine = try refusal.values(as: ListReminder.self)
            #expect(mine.listID == "L1")
            #expect([ListReminder(id: "r9", listID: "L1", title: "Butter"), ListReminder(id: "r1", listID: "L1", title: "Oat milk")]
                .contains(mine))
            await app.close()
        }
    }

    @Test(arguments: StoreKind.allCases) func aRowAnEditorMovesAwayIsReportedToTheOwner(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            var app = try await SharedReminders(store: store)
            try await app.add("ana")
            try await app.add("bob")
            try await SharingTests.anasList(app)
            try await app.sync("ana").share("remindersList", key: .text("L1"), with: "bob", role: .editor)
            try await app.write("bob", "INSERT INTO remindersList(id, title) VALUES ('B1', 'Bob''s')")
            try await app.syncAll(["ana", "bob"])
            try await app.write("bob", "UPDATE reminder SET listID = 'B1' WHERE id = 'r1'")
            _ = try await app.sync("bob").synchronize()

            _ = try await app.sync("ana").synchronize()
            let departures = await app.sync("ana").takeReportedDepartures()
            #expect(try await app.rows("ana", "reminder").map(\.[0]) == ["r2"], "the reminder left Ana's device")
            #expect(departures.map(\.table) == ["reminder"])
            #expect(departures.first?.key == .text("r1"))
            #expect(try departures.first?.row(as: ListReminder.self) == ListReminder(id: "r1", listID: "L1", title: "Milk"),
                    "the row as Ana had it, not where it went")
            await app.close()
        }
    }
}
