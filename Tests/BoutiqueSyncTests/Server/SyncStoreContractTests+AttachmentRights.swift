import BoutiqueSync
import BoutiqueSyncServer
import Foundation
import Testing

/// A list of photos, as the app's model names it.
@Table("remindersList")
struct PhotoList: Sendable {
    @Column(primaryKey: true) let id: String
    var title: String
}

/// A photo of a list: a follower of the list's space, pointing at an attachment.
@Table("photo")
struct ListedPhoto: Sendable {
    @Column(primaryKey: true) let id: String
    var listID: String
    var image: StoredAttachment
}

/// The attachment-rights part of the store contract: the server learns which rows point at which
/// attachment from the columns devices describe, and a user reads an attachment when a row of a space
/// they see points at it (the row's writer having shown they hold the bytes), or when they uploaded it;
/// a device that loses a space loses its bytes too.
extension SyncStoreContractTests {
    static let photoPlan = BoutiqueMigrationPlan {
        BoutiqueMigration("v1_photos") { conn in
            try conn.execute("""
                CREATE TABLE remindersList(id TEXT PRIMARY KEY NOT NULL, title TEXT NOT NULL DEFAULT '');
                CREATE TABLE photo(id TEXT PRIMARY KEY NOT NULL, listID TEXT NOT NULL REFERENCES remindersList(id) ON DELETE CASCADE,
                    image TEXT NOT NULL);
                """)
        }
    }

    static func photoDevice(_ server: SyncServer, user: String) async throws -> (database: DatabaseActor, sync: BoutiqueSync) {
        let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: photoPlan)
        // Named by models: sync records that `image` holds attachments, and tells the server.
        let sync = try await BoutiqueSync(
            database: database, tables: [PhotoList.self, ListedPhoto.self], server: .inProcess(server, user: user))
        return (database, sync)
    }

    static func json(_ attachment: StoredAttachment) -> String {
        #"{"byteCount":\#(attachment.byteCount),"contentType":"\#(attachment.contentType)","id":"\#(attachment.id)"}"#
    }

    @Test(arguments: StoreKind.allCases)
    func aRowsReadersReadItsAttachmentsAndNobodyElse(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let rules = try JSONDecoder().decode(SyncRules.self, from: Data(#"{"roots": ["remindersList"], "follows": {"photo": "listID"}}"#.utf8))
            let server = SyncServer(store: store, rules: rules)
            let ana = try await Self.photoDevice(server, user: "ana")
            let holiday = try await ana.database.attachments.store(Data(repeating: 1, count: 1_000), contentType: "image/jpeg")
            let own = try await ana.database.attachments.store(Data(repeating: 2, count: 1_000), contentType: "image/jpeg")
            let later = try await ana.database.attachments.store(Data(repeating: 3, count: 1_000), contentType: "image/png")
            try await ana.database.write { conn in
                try conn.execute("INSERT INTO remindersList VALUES ('L1', 'Holiday'), ('L2', 'Ana only')")
                try conn.execute("INSERT INTO photo VALUES ('p1', 'L1', ?), ('p2', 'L2', ?)", [.text(Self.json(holiday)), .text(Self.json(own))])
            }
            _ = try await ana.sync.synchronize()
            // The in-process transport's tenant.
            let tenant = "default"
            func readers(_ attachment: StoredAttachment, tenant: String = tenant) async throws -> Set<String> {
                var readers: Set<String> = []
                for user in ["ana", "bob", "dan"] {
                    if try await server.mayRead(attachment: attachment.id, user: user, tenant: tenant) { readers.insert(user) }
                }
                return readers
            }
            // Her device uploads the bytes after the rows (the HTTP front end notes each whole upload):
            // until then a pointer alone opens nothing, its writer's included.
            #expect(try await readers(holiday).isEmpty)
            #expect(try await readers(own).isEmpty)
            for attachment in [holiday, own] { try await server.noteUpload(of: attachment.id, by: "ana", tenant: tenant) }
            #expect(try await readers(holiday) == ["ana"], "the owner sees her rows")
            #expect(try await readers(own) == ["ana"])

            _ = try await ana.sync.share("remindersList", key: .text("L1"), with: "bob", role: .viewer)
            let bob = try await Self.photoDevice(server, user: "bob")
            _ = try await bob.sync.synchronize()
            // A viewer of the list reads its photo, not the photo of a list he is not in; a user of the
            // tenant in no list reads neither.
            #expect(try await readers(holiday) == ["ana", "bob"])
            #expect(try await readers(own) == ["ana"])
            #expect(try await readers(holiday, tenant: "elsewhere").isEmpty, "nothing crosses tenants")
            // Bob's device fetches the bytes (the in-process transport moves rows only: stored here, and
            // confirmed as a fetch confirms them, the server holding them whole; a row pulled again
            // queues its attachment again, until the uploader finds the server holds it).
            func fetch() async throws {
                _ = try await bob.database.attachments.store(Data(repeating: 1, count: 1_000), contentType: "image/jpeg")
                try await bob.database.write { conn in
                    try conn.execute("DELETE FROM boutique_sync_attachment_upload WHERE id = ?", [.text(holiday.id)])
                }
            }
            try await fetch()
            #expect(try await bob.database.attachments.fileURL(for: holiday) != nil)

            // The photo's attachment replaced, and the own photo deleted: their old bytes are nobody's.
            try await ana.database.write { conn in
                try conn.execute("UPDATE photo SET image = ? WHERE id = 'p1'", [.text(Self.json(later))])
                try conn.execute("DELETE FROM photo WHERE id = 'p2'")
            }
            _ = try await ana.sync.synchronize()
            #expect(try await readers(later).isEmpty, "not uploaded yet")
            try await server.noteUpload(of: later.id, by: "ana", tenant: tenant)
            #expect(try await readers(later) == ["ana", "bob"])
            #expect(try await readers(holiday) == ["ana"], "no row points at it: its uploader reads it, nobody else")
            #expect(try await readers(own) == ["ana"])
            _ = try await bob.sync.synchronize()
            #expect(try await bob.database.attachments.fileURL(for: holiday) != nil, "bytes a row stopped pointing at stay: only a departure removes them")

            // Back to the first photo, then unshared: Bob reads nothing, and his device drops the bytes.
            try await ana.database.write { conn in try conn.execute("UPDATE photo SET image = ? WHERE id = 'p1'", [.text(Self.json(holiday))]) }
            _ = try await ana.sync.synchronize()
            _ = try await bob.sync.synchronize()
            #expect(try await readers(holiday) == ["ana", "bob"])
            try await fetch()
            _ = try await ana.sync.unshare("remindersList", key: .text("L1"), with: "bob")
            #expect(try await readers(holiday) == ["ana"])
            _ = try await bob.sync.synchronize()
            #expect(try await bob.database.rows("photo").isEmpty)
            #expect(try await bob.database.attachments.fileURL(for: holiday) == nil, "the bytes left with the space's rows")
            #expect(try await ana.database.attachments.fileURL(for: holiday) != nil)

            // Dan knows the id of Ana's own photo (a former member did, or a log): a row of his own
            // pointing at it opens nothing, to him or to anyone he shares the row with.
            let dan = try await Self.photoDevice(server, user: "dan")
            try await dan.database.write { conn in
                try conn.execute("INSERT INTO remindersList VALUES ('L3', 'Found')")
                try conn.execute("INSERT INTO photo VALUES ('p3', 'L3', ?)", [.text(Self.json(own))])
            }
            _ = try await dan.sync.synchronize()
            _ = try await dan.sync.share("remindersList", key: .text("L3"), with: "bob", role: .viewer)
            #expect(try await readers(own) == ["ana"])
            // Once he uploads the bytes whole, he has shown he holds them: he reads them, and so do
            // his row's readers.
            try await server.noteUpload(of: own.id, by: "dan", tenant: tenant)
            #expect(try await readers(own) == ["ana", "bob", "dan"])
            await dan.database.close()
            await ana.database.close()
            await bob.database.close()
        }
    }
}

extension SyncStoreContractTests {
    @Test(arguments: StoreKind.allCases)
    func attachmentColumnsAddUpAcrossDevices(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let server = Self.server(store)
            func describe(_ shape: SyncTableShape, replica: String) async throws {
                _ = try await server.push(
                    PushRequest(replica: replica, baseTransactionID: 0, baseDigest: nil, schemaVersion: 1, transactions: [], tables: [shape]),
                    tenant: "t")
            }
            try await describe(SyncTableShape(table: "photo", columns: ["id", "image"], attachments: ["image"]), replica: "app")
            // A device that describes no attachment column (an older app, the tool on an empty table).
            try await describe(SyncTableShape(table: "photo", columns: ["id", "image", "thumb"]), replica: "older")
            try await describe(SyncTableShape(table: "photo", columns: ["id", "image", "thumb"], attachments: ["thumb"]), replica: "newer")
            let shapes = try await store.read(tenant: "t") { store in try store.tableShapes() }
            #expect(shapes.map(\.attachments) == [["image", "thumb"]])
            #expect(shapes.map(\.columns) == [["id", "image", "thumb"]], "the rest of the shape is the latest description")
        }
    }
}
