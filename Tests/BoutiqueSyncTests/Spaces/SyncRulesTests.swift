import BoutiqueSync
import BoutiqueSyncServer
import Foundation
import Testing

/// Rules read from JSON, refused when they cannot be right.
@Suite struct SyncRulesTests {
    @Test func theDocumentedJSONReads() throws {
        let rules = try SpacesSchema.rules()
        #expect(rules.placement(of: "REMINDERSLIST") == .root)
        #expect(rules.placement(of: "reminder") == .follower(column: "listid"))
        #expect(rules.placement(of: "reminderTag") == .follower(column: "reminderid"))
        #expect(rules.placement(of: "tag") == .private)
        #expect(rules.placement(of: "note") == .common)
    }

    @Test(arguments: [
        #"{"roots": ["a"], "private": ["a"]}"#,
        #"{"roots": [""]}"#,
        #"{"roots": ["a:b"]}"#,
        #"{"follows": {"a": ""}}"#,
        #"{"roots": "a"}"#,
        #"{"root": ["a"]}"#,
        #"{"roots": [1]}"#,
        #"[]"#,
        #"{"roots": ["a", "A"]}"#,
    ])
    func hostileOrWrongRulesAreRefused(json: String) {
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(SyncRules.self, from: Data(json.utf8)) }
    }

    @Test func rulesAreCheckedAgainstTheTablesDevicesDescribed() throws {
        let rules = try SpacesSchema.rules()
        let shapes = [
            SyncTableShape(table: "remindersList", columns: ["id", "title"]),
            SyncTableShape(table: "reminder", columns: ["id", "listID", "title"], references: ["listID": "remindersList"]),
            SyncTableShape(table: "tag", columns: ["id", "name"]),
            SyncTableShape(table: "reminderTag", columns: ["id", "reminderID", "tagID"], references: ["reminderID": "reminder", "tagID": "tag"]),
        ]
        try rules.check(against: shapes)
        try rules.check(against: [])
        // Devices that sync only some of the tables the rules name: every table they sync is placed
        // by a rule, so nothing is misplaced.
        let someTables = shapes.filter { $0.table != "tag" }
        #expect(rules.mismatches(with: someTables).isEmpty)
        // A table they sync that no rule names, beside a rule naming a table they do not sync: the
        // rule may be that table misspelt, and its rows would be in the common space.
        let misspelt = try #require(throws: BoutiqueError.self) {
            try rules.check(against: someTables + [SyncTableShape(table: "tags", columns: ["id", "name"])])
        }
        #expect("\(misspelt)".contains("'tag'") && "\(misspelt)".contains("'tags'"), "\(misspelt)")
        // Devices that describe every table, one of them named by no rule (a common table): fine.
        #expect(rules.mismatches(with: shapes + [SyncTableShape(table: "settings", columns: ["id"])]).isEmpty)
        let noColumn = try SyncRules(roots: ["remindersList"], follows: ["reminder": "parentID"])
        let error = try #require(throws: BoutiqueError.self) { try noColumn.check(against: shapes) }
        #expect("\(error)".contains("parentID"))
        let cycle = try SyncRules(follows: ["a": "bID", "b": "aID"])
        let cyclic = [
            SyncTableShape(table: "a", columns: ["id", "bID"], references: ["bID": "b"]),
            SyncTableShape(table: "b", columns: ["id", "aID"], references: ["aID": "a"]),
        ]
        let cycleError = try #require(throws: BoutiqueError.self) { try cycle.check(against: cyclic) }
        #expect("\(cycleError)".contains("cycle"))
    }

    @Test func aServerChecksItsRulesAgainstWhatItHasSeen() async throws {
        var app = try await SharedReminders()
        try await app.add("ana")
        _ = try await app.sync("ana").synchronize()
        #expect(try await app.server.checkRules().isEmpty)
        let wrong = SyncServer(store: app.server.store, rules: try SyncRules(roots: ["folder"]))
        let problems = try await wrong.checkRules()
        #expect(problems.keys.sorted() == ["default"])
        #expect(problems["default"]?.contains("'folder'") == true, "\(problems)")
        await app.close()
    }
}
