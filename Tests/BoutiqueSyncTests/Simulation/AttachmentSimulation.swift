import BoutiqueSync
import BoutiqueSyncServer
import BoutiqueTestSupport
import Foundation

/// An album: a space of its own, its creator its owner.
@Table("album")
struct SimulatedAlbum: Sendable {
    @Column(primaryKey: true) let id: String
    var title: String
}

/// A photo of an album, whose bytes are an attachment.
@Table("photo")
struct SimulatedPhoto: Sendable {
    @Column(primaryKey: true) let id: String
    var albumID: String
    var image: Attachment
}

/// The photo albums app's schema and rules: albums are spaces, photos follow their album.
enum PhotoAlbumsSchema {
    static let plan = BoutiqueMigrationPlan {
        BoutiqueMigration("v1_albums") { conn in
            try conn.execute("""
                CREATE TABLE album(id TEXT PRIMARY KEY NOT NULL, title TEXT NOT NULL DEFAULT '');
                CREATE TABLE photo(id TEXT PRIMARY KEY NOT NULL,
                    albumID TEXT NOT NULL REFERENCES album(id) ON DELETE CASCADE, image TEXT NOT NULL);
                """)
        }
    }

    static let tables = ["album", "photo"]

    static func rules() throws -> SyncRules {
        try JSONDecoder().decode(SyncRules.self, from: Data(#"{"roots": ["album"], "follows": {"photo": "albumID"}}"#.utf8))
    }
}

/// One seeded run of users sharing photo albums over a faulty network: devices add photos (new bytes,
/// or bytes they hold already), repoint and delete them, sync (rows, then uploads), fetch photos they
/// see, crash; owners share and unshare albums; the server's housekeeping collects bytes no row points
/// at while this goes on. After every step a user who may not read an attachment (who never held its
/// bytes, and is not a member of the album of a live photo pointing at it) asks the server for it,
/// knowing its id and size, and must get nothing: neither the bytes nor an upload's "whole". Once the
/// network heals and every device synced:
///
/// - no acknowledged attachment is lost: the server holds the bytes of every live photo, whole and
///   right, and every device that shows the photo fetches them, byte for byte;
/// - none is readable by a non-member (the check above, for every user and every attachment).
///
/// ```swift
/// let outcome = try await AttachmentSimulation(seed: 7, steps: 80).run()
/// outcome.failures   // empty when every check passed
/// ```
struct AttachmentSimulation {
    let seed: UInt64
    let steps: Int

    static let tenant = "photos"
    static let users = ["ana", "bob", "cleo"]
    /// How long bytes no row points at stay on the server (virtual milliseconds).
    static let retention: UInt64 = 120_000

    struct Outcome: Sendable {
        var failures: [String]
        /// Live photos whose bytes were checked after healing, reads of bytes the server held refused
        /// to users who may not read them, and fetches that brought bytes on the way.
        var livePhotos = 0
        var refusedReads = 0
        var fetched = 0
    }

    /// What the run made and who held it: the bytes by id, and the users whose devices held them
    /// (made them or fetched them), who may have uploaded them and so read them (DESIGN section 14).
    private struct Made {
        var bytes: [String: Data] = [:]
        var holders: [String: Set<String>] = [:]
        var attachments: [String: Attachment] = [:]
        var photos: [String] = []
        var albums: [String] = []
    }

    func run() async throws -> Outcome {
        let directory = try SyncTemporaryDirectory(inMemory: true)
        var random = SeededRandom(seed: seed)
        let time = VirtualTime()
        let identifiers = SeededIdentifiers(seed: seed)
        let store = try await SQLiteSyncStore.open(url: directory.file("server.db"))
        let server = SyncServer(
            store: store, rules: try PhotoAlbumsSchema.rules(), maximumClockSkewMilliseconds: SyncProtocol.defaultMaximumClockSkewMilliseconds,
            wallClock: { time.milliseconds })
        let bytes = try FolderAttachmentStore(directory: directory.file("server.db.attachments"))
        let requests = AttachmentRequests(server: server, bytes: bytes)

        var devices: [SimulatedDevice] = []
        var owners = Self.users
        if random.chance(60) { owners.append(random.pick(Self.users)) }
        for user in owners {
            let index = devices.count
            let device = SimulatedDevice(
                name: "d\(index)", url: directory.file("device\(index).db"),
                network: SimulatedNetwork(
                    server: server, tenant: Self.tenant, seed: seed &* 31 &+ UInt64(index), user: user, attachments: requests),
                skew: Int64(random.int(in: -2...2)) * 60_000, upgraded: false, pullLimit: random.int(in: 3...30), app: .photoAlbums)
            try await device.open(time: time, identifiers: identifiers)
            devices.append(device)
        }

        var outcome = Outcome(failures: [])
        var made = Made()
        for step in 0..<steps {
            time.advance(by: UInt64(random.int(in: 0...3_000)))
            let device = random.pick(devices)
            let user = device.network.user
            do {
                switch random.below(100) {
                case 0..<10:
                    guard let database = device.database else { break }
                    let album = "a\(made.albums.count)"
                    try await database.write { conn in
                        try conn.execute("INSERT INTO album(id, title) VALUES (?, ?)", [.text(album), .text("\(user)'s album")])
                    }
                    made.albums.append(album)
                case 10..<35:
                    guard let database = device.database else { break }
                    let albums = try await Self.ids("SELECT id FROM album ORDER BY id", database)
                    guard !albums.isEmpty else { break }
                    let held = try await Self.heldAttachments(device, made: made)
                    let attachment: Attachment
                    if !held.isEmpty, random.chance(25) {
                        // The same photo again, in another row: its bytes are stored once.
                        attachment = random.pick(held)
                    } else {
                        var data = Data("photo \(made.photos.count) of seed \(seed) ".utf8)
                        data.append(contentsOf: (0..<random.int(in: 0...6_000)).map { _ in UInt8(truncatingIfNeeded: random.next()) })
                        attachment = try await database.attachments.store(data, contentType: "image/jpeg")
                        made.bytes[attachment.id] = data
                        made.attachments[attachment.id] = attachment
                    }
                    made.holders[attachment.id, default: []].insert(user)
                    let photo = "p\(made.photos.count)"
                    let album = random.pick(albums)
                    let image = Attachment.encode(attachment)
                    try await database.write { conn in
                        try conn.execute("INSERT INTO photo(id, albumID, image) VALUES (?, ?, ?)", [.text(photo), .text(album), image])
                    }
                    made.photos.append(photo)
                case 35..<42:
                    guard let database = device.database else { break }
                    let photos = try await Self.ids("SELECT id FROM photo ORDER BY id", database)
                    guard !photos.isEmpty else { break }
                    let photo = random.pick(photos)
                    let held = try await Self.heldAttachments(device, made: made)
                    if !held.isEmpty, random.chance(50) {
                        let image = Attachment.encode(random.pick(held))
                        try await database.write { conn in
                            try conn.execute("UPDATE photo SET image = ? WHERE id = ?", [image, .text(photo)])
                        }
                    } else {
                        try await database.write { conn in try conn.execute("DELETE FROM photo WHERE id = ?", [.text(photo)]) }
                    }
                case 42..<64:
                    _ = try? await device.sync?.synchronize()
                case 64..<74:
                    if try await fetchOne(on: device, server: server, made: &made, random: &random, failures: &outcome.failures) {
                        outcome.fetched += 1
                    }
                case 74..<82:
                    try await changeMembers(server: server, made: made, random: &random)
                case 82..<87:
                    device.network.faults = SimulatedNetwork.Faults(
                        offline: random.chance(30), dropRequest: random.int(in: 0...20), dropResponse: random.int(in: 0...20),
                        duplicate: random.int(in: 0...20), delay: 0)
                case 87..<92:
                    await device.crash()
                    try await device.open(time: time, identifiers: identifiers)
                case 92..<96:
                    _ = try await server.collectAttachments(tenant: Self.tenant, in: bytes, retentionMilliseconds: Self.retention)
                default:
                    time.advance(by: UInt64(random.int(in: 30_000...200_000)))
                }
            } catch {
                outcome.failures.append("step \(step) on \(device.name) (\(user)): \(error)")
            }
            outcome.refusedReads += try await checkNoOutsiderReads(
                requests: requests, server: server, made: made, random: &random, step: step, failures: &outcome.failures)
        }

        // Heal, then sync every device until a whole round moves nothing, uploads included.
        for device in devices {
            device.network.faults = .none
            if device.sync == nil { try await device.open(time: time, identifiers: identifiers) }
        }
        let quiet = try await syncUntilQuiet(devices, time: time) { device in
            guard let sync = device.sync else { return false }
            // A round uploads what waits after its rows.
            let report = try await sync.synchronize()
            let waiting = await sync.status.attachmentsWaitingToUpload
            return report.pushed > 0 || report.applied > 0 || waiting > 0
        }
        if !quiet { outcome.failures.append("still syncing after 10 rounds") }
        // Housekeeping after healing, past the retention: what a live row points at stays.
        time.advance(by: Self.retention + 1)
        _ = try await server.collectAttachments(tenant: Self.tenant, in: bytes, retentionMilliseconds: Self.retention)

        let live = try await livePhotos(server: server, made: made)
        outcome.livePhotos = live.count
        for (photo, (album, id)) in live.sorted(by: { $0.key < $1.key }) {
            // The server holds them whole and right.
            guard let expected = made.bytes[id], let attachment = made.attachments[id] else {
                outcome.failures.append("photo \(photo) points at \(id), which no device made")
                continue
            }
            let stored = try? await bytes.read(id, offset: 0, length: Int(attachment.byteCount) + 1, tenant: Self.tenant).bytes
            if stored.map({ Data($0) }) != expected {
                outcome.failures.append("the server lost the bytes of photo \(photo) in \(album) (\(id.prefix(12)))")
                continue
            }
            // Every device that shows the photo fetches them.
            for device in devices {
                guard let database = device.database, let sync = device.sync,
                    let image = try await Self.ids("SELECT image FROM photo WHERE id = '\(photo)'", database).first
                else { continue }
                guard (try? JSONDecoder().decode(Attachment.self, from: Data(image.utf8)))?.id == id else {
                    outcome.failures.append("\(device.name) shows photo \(photo) with another image than the server's")
                    continue
                }
                do {
                    try await sync.attachments.fetch(attachment, waitingForUpload: false)
                    let local = try await database.attachments.data(for: attachment)
                    if local != expected { outcome.failures.append("\(device.name) fetched other bytes for photo \(photo)") }
                } catch {
                    outcome.failures.append("\(device.name) (\(device.network.user)) shows photo \(photo) in \(album) but cannot fetch it: \(error)")
                }
            }
        }
        // Nobody reads what they may not, every user and every attachment.
        for id in made.bytes.keys.sorted() {
            for user in Self.users {
                outcome.refusedReads += try await checkRead(
                    id, by: user, requests: requests, server: server, made: made, live: live, step: steps, failures: &outcome.failures)
            }
        }
        for device in devices { await device.crash() }
        return outcome
    }

    // MARK: Steps

    /// Fetches a photo the device shows; whatever comes must be its bytes. Returns whether bytes came.
    private func fetchOne(
        on device: SimulatedDevice, server: SyncServer, made: inout Made, random: inout SeededRandom, failures: inout [String]
    ) async throws -> Bool {
        guard let database = device.database, let sync = device.sync else { return false }
        let images = try await Self.ids("SELECT image FROM photo ORDER BY id", database)
        guard !images.isEmpty, let attachment = try? JSONDecoder().decode(Attachment.self, from: Data(random.pick(images).utf8)) else { return false }
        // A device that shows a photo its user may no longer read (a removal it has not pulled yet)
        // must not get the bytes from the server; bytes already on the device are its own.
        let user = device.network.user
        let allowed = try await mayRead(attachment.id, user: user, server: server, made: made, live: try await livePhotos(server: server, made: made))
        let wasHere = try await database.attachments.fileURL(for: attachment) != nil
        do {
            try await sync.attachments.fetch(attachment, waitingForUpload: false)
        } catch BoutiqueError.attachmentNotUploaded, BoutiqueError.syncUnavailable {
            return false
        } catch {
            failures.append("\(device.name) fetching \(attachment.id.prefix(12)): \(error)")
            return false
        }
        if !allowed, !wasHere {
            failures.append("\(device.name): \(user), who may not read \(attachment.id.prefix(12)), fetched its bytes from the server")
        }
        made.holders[attachment.id, default: []].insert(user)
        if try await database.attachments.data(for: attachment) != made.bytes[attachment.id] {
            failures.append("\(device.name) fetched other bytes for \(attachment.id.prefix(12))")
        }
        return true
    }

    /// An owner's album shared with another user, or a member removed (never the owner).
    private func changeMembers(server: SyncServer, made: Made, random: inout SeededRandom) async throws {
        guard !made.albums.isEmpty else { return }
        let album = random.pick(made.albums)
        // Only an album the server has (its device may not have pushed it yet).
        let known = try await server.store.read(tenant: Self.tenant) { store in
            try store.rowState(table: "album", key: .text(album))?.isVisible == true
        }
        guard known else { return }
        let members = try await server.members(table: "album", key: .text(album), tenant: Self.tenant)
        guard members.contains(where: { $0.role == .owner }) else { return }
        let others = Self.users.filter { user in !members.contains { $0.user == user && $0.role == .owner } }
        guard !others.isEmpty else { return }
        let target = random.pick(others)
        let isMember = members.contains { $0.user == target }
        let role: SyncRole? = isMember && random.chance(60) ? nil : (random.chance(50) ? .viewer : .editor)
        try await server.setMember(target, role: role, table: "album", key: .text(album), tenant: Self.tenant)
    }

    // MARK: Checks

    /// Asks for a random attachment as a random user: one who may not read it must get nothing.
    /// Returns 1 when the server refused a read it had to refuse.
    private func checkNoOutsiderReads(
        requests: AttachmentRequests, server: SyncServer, made: Made, random: inout SeededRandom, step: Int, failures: inout [String]
    ) async throws -> Int {
        guard !made.bytes.isEmpty else { return 0 }
        let id = random.pick(made.bytes.keys.sorted())
        let user = random.pick(Self.users)
        return try await checkRead(
            id, by: user, requests: requests, server: server, made: made, live: try await livePhotos(server: server, made: made), step: step,
            failures: &failures)
    }

    /// Reads `id` as `user`; a user who may not read it (never held its bytes, and is not a member of
    /// the album of a live photo pointing at it) must be told neither the bytes nor that they are
    /// whole. Returns 1 when such a user was refused.
    private func checkRead(
        _ id: String, by user: String, requests: AttachmentRequests, server: SyncServer, made: Made, live: [String: (album: String, id: String)],
        step: Int, failures: inout [String]
    ) async throws -> Int {
        guard try await !mayRead(id, user: user, server: server, made: made, live: live), let attachment = made.attachments[id] else { return 0 }
        var leaked: [String] = []
        if let range = try? await requests.read(id, offset: 0, length: 64, tenant: Self.tenant, user: user), !range.isEmpty {
            leaked.append("its bytes")
        }
        if let state = try? await requests.state(of: id, byteCount: attachment.byteCount, tenant: Self.tenant, user: user), state.isUploaded {
            leaked.append("that it is uploaded whole")
        }
        guard leaked.isEmpty else {
            failures.append("step \(step): \(user), who may not read \(id.prefix(12)), was told \(leaked.joined(separator: " and "))")
            return 0
        }
        // A refusal counts only where there was something to refuse: the server holds the bytes whole.
        let held = try await requests.bytes.state(of: id, byteCount: attachment.byteCount, tenant: Self.tenant, uploader: "simulator")
        return held.isUploaded ? 1 : 0
    }

    /// Whether the run lets `user` read `id`: they held its bytes (made or fetched them, so may have
    /// uploaded them), or they are a member of the album of a live photo pointing at it.
    private func mayRead(
        _ id: String, user: String, server: SyncServer, made: Made, live: [String: (album: String, id: String)]
    ) async throws -> Bool {
        if made.holders[id]?.contains(user) == true { return true }
        for (album, pointed) in live.values where pointed == id {
            let members = try await server.members(table: "album", key: .text(album), tenant: Self.tenant)
            if members.contains(where: { $0.user == user }) { return true }
        }
        return false
    }

    /// The server's live photos (in a live album) by id: their album and the attachment they point at.
    private func livePhotos(server: SyncServer, made: Made) async throws -> [String: (album: String, id: String)] {
        try await server.store.read(tenant: Self.tenant) { store in
            var live: [String: (album: String, id: String)] = [:]
            for photo in made.photos {
                guard let state = try store.rowState(table: "photo", key: .text(photo)), state.isVisible else { continue }
                // Column names as the server keeps them, whatever their case.
                let values = Dictionary(state.visibleValues(textColumns: []).map { ($0.key.lowercased(), $0.value) }) { first, _ in first }
                guard let album = Self.text(values["albumid"]), let image = Self.text(values["image"]),
                    let attachment = try? JSONDecoder().decode(Attachment.self, from: Data(image.utf8)),
                    try store.rowState(table: "album", key: .text(album))?.isVisible == true
                else { continue }
                live[photo] = (album, attachment.id)
            }
            return live
        }
    }

    // MARK: Helpers

    private static func ids(_ sql: String, _ database: DatabaseActor) async throws -> [String] {
        try await database.read { conn in try conn.fetchAll(sql).compactMap { row in text(row.values.first) } }
    }

    private static func text(_ value: DatabaseValue?) -> String? {
        if case .text(let text)? = value { text } else { nil }
    }

    /// Attachments whose bytes the device holds.
    private static func heldAttachments(_ device: SimulatedDevice, made: Made) async throws -> [Attachment] {
        guard let database = device.database else { return [] }
        var held: [Attachment] = []
        for id in made.attachments.keys.sorted() {
            if let attachment = made.attachments[id], try await database.attachments.fileURL(for: attachment) != nil { held.append(attachment) }
        }
        return held
    }
}
