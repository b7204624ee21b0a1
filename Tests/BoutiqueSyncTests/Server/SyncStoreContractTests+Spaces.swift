import BoutiqueSync
import BoutiqueSyncServer
import Foundation
import Testing

/// The spaces part of the store contract: what a server with rules keeps in its store (placements,
/// the log's spaces, members' history, tables' shapes), each the same way in every store.
extension SyncStoreContractTests {
    static let list = SyncSpace.shared(table: "list", key: .text("l1"))
    static let other = SyncSpace.shared(table: "list", key: .blob([0, 0xFF]))

    /// A row's state, alive or deleted, holding `index` so that rows tell apart.
    static func state(_ index: Int64, alive: Bool = true) -> RowRegister {
        let stamp = SyncStamp(time: HybridTimestamp(milliseconds: wall), replica: "w")
        var state = RowRegister(existence: ExistenceRegister(exists: alive, stamp: stamp), lastDelete: alive ? nil : stamp)
        state.cells["i"] = CellRegister(value: .integer(index), stamp: stamp)
        return state
    }

    // MARK: Placements

    @Test(arguments: StoreKind.allCases)
    func placementsRoundTripWithTheirParentsAndMove(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let parent = SnapshotPosition(table: "list", key: .text("l1"))
            let following = RowPlacement(space: Self.list, parent: parent)
            let read = try await store.transaction(tenant: "t") { store in
                try store.setRowState(Self.state(1), table: "list", key: .text("l1"), sequence: 1, placement: RowPlacement(space: Self.list))
                try store.setRowState(Self.state(2), table: "item", key: .blob([1]), sequence: 2, placement: following)
                try store.setRowState(Self.state(3, alive: false), table: "item", key: .text("b"), sequence: 3, placement: following)
                try store.setRowState(
                    Self.state(4), table: "tag", key: .text("a"), sequence: 4, placement: RowPlacement(space: .private(user: "ana"), parent: parent))
                try store.setRowState(Self.state(5), table: "note", key: .text("n"), sequence: 5)
                return (
                    try store.placement(table: "list", key: .text("l1")), try store.placement(table: "item", key: .text("b")),
                    try store.placement(table: "note", key: .text("n")), try store.placement(table: "note", key: .text("missing")),
                    try store.children(of: parent), try store.children(of: SnapshotPosition(table: "list", key: .text("l"))))
            }
            #expect(read.0 == RowPlacement(space: Self.list))
            #expect(read.1 == following, "a tombstone keeps its placement")
            #expect(read.2 == .common, "a row stored without a placement is in the common space")
            #expect(read.3 == nil)
            #expect(read.4 == [
                SnapshotPosition(table: "item", key: .text("b")), SnapshotPosition(table: "item", key: .blob([1])),
                SnapshotPosition(table: "tag", key: .text("a")),
            ], "followers in table then key order, text keys before blob keys, whatever their space")
            #expect(read.5.isEmpty)

            let moved = RowPlacement(space: Self.other, parent: SnapshotPosition(table: "list", key: .blob([0, 0xFF])))
            let after = try await store.transaction(tenant: "t") { store in
                try store.setPlacement(moved, table: "item", key: .blob([1]))
                try store.setPlacement(.common, table: "tag", key: .text("a"))
                try store.setPlacement(moved, table: "item", key: .text("missing"))
                return (
                    try store.placement(table: "item", key: .blob([1])), try store.placement(table: "tag", key: .text("a")),
                    try store.rowState(table: "item", key: .blob([1])), try store.placement(table: "item", key: .text("missing")),
                    try store.children(of: parent), try store.children(of: SnapshotPosition(table: "list", key: .blob([0, 0xFF]))))
            }
            #expect(after.0 == moved && after.1 == .common)
            #expect(after.2 == Self.state(2), "moving a row leaves its state as it was")
            #expect(after.3 == nil, "moving a row the store does not hold creates none")
            #expect(after.4 == [SnapshotPosition(table: "item", key: .text("b"))])
            #expect(after.5 == [SnapshotPosition(table: "item", key: .blob([1]))])

            let elsewhere = try await store.transaction(tenant: "u") { store in
                (try store.placement(table: "item", key: .text("b")), try store.children(of: parent))
            }
            #expect(elsewhere.0 == nil && elsewhere.1.isEmpty, "another tenant holds none of it")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aSpacesRowsPageInTableThenKeyOrderAndAreCounted(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let keys: [DatabaseValue] = [.blob([0xFF]), .text("b"), .blob([]), .text("é"), .text("B"), .blob([0]), .text("")]
            let ordered: [DatabaseValue] = [.text(""), .text("B"), .text("b"), .text("é"), .blob([]), .blob([0]), .blob([0xFF])]
            let tables = ["t1", "T0"]
            try await store.transaction(tenant: "t") { store in
                for table in tables {
                    for (index, key) in keys.enumerated() {
                        // Each row in the list's space, and a row of the same table and key in no other.
                        try store.setRowState(Self.state(Int64(index)), table: table, key: key, sequence: 1, placement: RowPlacement(space: Self.list))
                        try store.setRowState(
                            Self.state(Int64(index), alive: false), table: table + "-other", key: key, sequence: 1,
                            placement: RowPlacement(space: Self.other))
                    }
                }
                try store.setRowState(Self.state(9), table: "note", key: .text("n"), sequence: 2)
            }
            let expected = ["T0", "t1"].flatMap { table in ordered.map { SnapshotPosition(table: table, key: $0) } }
            let read = try await store.transaction(tenant: "t") { store in
                var paged: [SnapshotRow] = []
                var position: SnapshotPosition?
                while true {
                    let page = try store.rows(in: Self.list, after: position, limit: 3)
                    paged += page
                    guard page.count == 3, let last = page.last else { break }
                    // The position's space is the snapshot's business; the store ignores it.
                    position = SnapshotPosition(table: last.table, key: last.key, space: .private(user: "someone"))
                }
                return (
                    try store.rows(in: Self.list, after: nil, limit: 100), paged,
                    try store.rows(in: Self.list, after: nil, limit: -1).count,
                    try store.rows(in: Self.list, after: SnapshotPosition(table: "T0", key: .null), limit: 100),
                    try store.rows(in: Self.list, after: SnapshotPosition(table: "t1", key: .blob([0xFF])), limit: 100),
                    try store.rows(in: .common, after: nil, limit: 100), try store.rows(in: .private(user: "ana"), after: nil, limit: 100),
                    [try store.rowCount(in: [Self.list]), try store.rowCount(in: [Self.list, Self.other]),
                     try store.rowCount(in: [.common, Self.list, Self.other, .private(user: "ana")]), try store.rowCount(in: [])])
            }
            #expect(read.0.map { SnapshotPosition(table: $0.table, key: $0.key) } == expected)
            #expect(read.0.allSatisfy { $0.space == Self.list }, "each row carries its space")
            #expect(read.0.first?.state == Self.state(6), "the row stored under the empty text key")
            #expect(read.1 == read.0)
            #expect(read.2 == expected.count, "a negative limit is no limit")
            #expect(read.3.map(\.table) == Array(repeating: "t1", count: keys.count), "nothing of a table follows a NULL key")
            #expect(read.4.isEmpty)
            #expect(read.5.map(\.key) == [.text("n")] && read.5.first?.space == nil, "the common space's rows carry no space")
            #expect(read.6.isEmpty)
            #expect(read.7 == [expected.count, 2 * expected.count, 2 * expected.count + 1, 0], "tombstones included")
            let elsewhere = try await store.transaction(tenant: "u") { store in
                (try store.rows(in: Self.list, after: nil, limit: 10), try store.rowCount(in: [Self.list, .common]))
            }
            #expect(elsewhere.0.isEmpty && elsewhere.1 == 0)
        }
    }

    // MARK: The log

    @Test(arguments: StoreKind.allCases)
    func theLogKeepsEachChangesSpaceAndWhereItMovedFrom(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let changes = (1...4).map { Self.change(key: .text("k\($0)"), title: "t\($0)") }
            let private_ = SyncSpace.private(user: "ana")
            let appended = try await store.transaction(tenant: "t") { store in
                let first = try store.appendChange(changes[0], origin: "r", batch: nil, space: Self.list, movedFrom: nil)
                let moved = try store.appendChange(changes[1], origin: "r", batch: first.batch, space: Self.other, movedFrom: Self.list)
                let reserved = try store.reserveSequence()
                let plain = try store.appendChange(changes[2], origin: "s", batch: nil)
                let last = try store.appendChange(changes[3], origin: "s", batch: plain.batch, space: private_, movedFrom: .common)
                return [first.sequence, first.batch, moved.sequence, moved.batch, reserved, plain.sequence, plain.batch, last.sequence, last.batch]
            }
            #expect(appended == [1, 1, 2, 1, 3, 4, 4, 5, 4], "a reserved number is taken from the same sequence")
            let read = try await store.transaction(tenant: "t") { store in
                func sequences(after: Int64 = 0, through: Int64 = 5, _ spaces: [SyncSpace], batch: Int64? = nil) throws -> [Int64] {
                    try store.changes(after: after, through: through, visibleIn: spaces, batch: batch).map(\.entry.sequence)
                }
                return (
                    try store.changes(after: 0, through: 5, visibleIn: [.common, Self.list, Self.other, private_], batch: nil),
                    [try sequences([Self.list]), try sequences([Self.other]), try sequences([.common]), try sequences([private_]),
                     try sequences([]), try sequences(after: 1, [Self.list]), try sequences(through: 4, [private_]),
                     try sequences(after: 2, through: 3, [.common, Self.list, Self.other, private_]),
                     try sequences([.common, Self.list, Self.other, private_], batch: 4), try sequences([Self.list], batch: 1),
                     try sequences([Self.other], batch: 4)],
                    try store.changes(after: 0, limit: 10).map(\.entry.sequence), try store.latestSequence())
            }
            let all = read.0
            #expect(all.map(\.entry.change) == changes)
            #expect(all.map(\.space) == [Self.list, Self.other, .common, private_])
            #expect(all.map(\.entry.space) == [Self.list, Self.other, nil, private_], "the common space is no space on the wire")
            #expect(all.map(\.movedFrom) == [nil, Self.list, nil, .common])
            #expect(all.map(\.batch) == [1, 1, 4, 4] && all.map(\.origin) == ["r", "r", "s", "s"])
            #expect(read.1 == [[1, 2], [2], [4, 5], [5], [], [2], [], [], [4, 5], [1, 2], []],
                    "an entry is visible in its space and in the space it moved its row from")
            #expect(read.2 == [1, 2, 4, 5], "the log without spaces reads every entry, as before")
            #expect(read.3 == 5)

            // A reserved number stays taken once committed.
            let next = try await store.transaction(tenant: "t") { store in
                (try store.reserveSequence(), try store.appendChange(Self.change(), origin: "r", batch: nil).sequence, try store.latestSequence())
            }
            #expect(next == (6, 7, 7))
            let elsewhere = try await store.transaction(tenant: "u") { store in
                (try store.changes(after: 0, through: 10, visibleIn: [.common, Self.list], batch: nil), try store.reserveSequence())
            }
            #expect(elsewhere.0.isEmpty && elsewhere.1 == 1, "each tenant has its own sequence")
        }
    }

    // MARK: Members

    @Test(arguments: StoreKind.allCases)
    func membersKeepTheirHistoryInTheSequence(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            try await store.transaction(tenant: "t") { store in
                try store.setMember("ana", role: .owner, in: Self.list, sequence: 1)
                try store.setMember("bö", role: .viewer, in: Self.list, sequence: 3)
                // A new role is not a point of the sequence: reads do not change.
                try store.setMember("bö", role: .editor, in: Self.list, sequence: 0)
                try store.setMember("bö", role: .viewer, in: Self.other, sequence: 4)
                try store.setMember("bö", role: nil, in: Self.list, sequence: 6)
                // Removing who is not a member changes nothing.
                try store.setMember("bö", role: nil, in: Self.list, sequence: 7)
                try store.setMember("cy", role: nil, in: Self.list, sequence: 8)
            }
            let between = try await store.transaction(tenant: "t") { store in
                (try store.members(of: Self.list), try store.memberships(of: "bö", at: nil))
            }
            #expect(between.0 == [SyncMember(user: "ana", role: .owner)])
            #expect(between.1 == [Self.other: .viewer])
            let read = try await store.transaction(tenant: "t") { store in
                try store.setMember("bö", role: .editor, in: Self.list, sequence: 9)
                return (
                    Set(try store.members(of: Self.list)), try store.members(of: Self.other),
                    try [2, 3, 5, 6, 8, 9].map { try store.memberships(of: "bö", at: $0) }, try store.memberships(of: "bö", at: nil),
                    try [0, 3, 4, 6, 9].map { try store.nextMembershipChange(of: "bö", after: $0) },
                    try store.nextMembershipChange(of: "ana", after: 0), try store.nextMembershipChange(of: "ana", after: 1),
                    try store.memberships(of: "nobody", at: nil))
            }
            #expect(read.0 == [SyncMember(user: "ana", role: .owner), SyncMember(user: "bö", role: .editor)])
            #expect(read.1 == [SyncMember(user: "bö", role: .viewer)])
            #expect(read.2 == [
                [:], [Self.list: .editor], [Self.list: .editor, Self.other: .viewer], [Self.other: .viewer], [Self.other: .viewer],
                [Self.list: .editor, Self.other: .viewer],
            ], "a member from the sequence they joined at, up to (not at) the one they left at")
            #expect(read.3 == [Self.list: .editor, Self.other: .viewer])
            #expect(read.4 == [
                MembershipChange(sequence: 3, space: Self.list, joined: true), MembershipChange(sequence: 4, space: Self.other, joined: true),
                MembershipChange(sequence: 6, space: Self.list, joined: false), MembershipChange(sequence: 9, space: Self.list, joined: true),
                nil,
            ])
            #expect(read.5 == MembershipChange(sequence: 1, space: Self.list, joined: true) && read.6 == nil)
            #expect(read.7.isEmpty)
            let elsewhere = try await store.transaction(tenant: "u") { store in
                (try store.members(of: Self.list), try store.memberships(of: "ana", at: nil), try store.nextMembershipChange(of: "ana", after: 0))
            }
            #expect(elsewhere.0.isEmpty && elsewhere.1.isEmpty && elsewhere.2 == nil)
        }
    }

    // MARK: Shapes

    @Test(arguments: StoreKind.allCases)
    func tableShapesAreEachTenantsOwnAndReplacedByTable(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let item = SyncTableShape(table: "item", columns: ["id", "listID", "title"], references: ["listID": "list"])
            let list = SyncTableShape(table: "list", columns: ["id", "name"])
            let nul = SyncTableShape(table: "odd\u{0}name", columns: ["id"])
            #expect(try await store.transaction(tenant: "a") { store in try store.tableShapes() }.isEmpty)
            try await store.transaction(tenant: "a") { store in try store.setTableShapes([list, nul, item]) }
            #expect(try await store.transaction(tenant: "a") { store in try store.tableShapes() } == [item, list, nul], "by table")
            #expect(try await store.read(tenant: "b") { store in try store.tableShapes() }.isEmpty, "tenant a's shapes are its own")
            // Another tenant describing a table of the same name changes nothing of a's.
            let junk = SyncTableShape(table: "item", columns: ["id"])
            try await store.transaction(tenant: "b") { store in try store.setTableShapes([junk]) }
            #expect(try await store.read(tenant: "b") { store in try store.tableShapes() } == [junk])
            let renamed = SyncTableShape(table: "list", columns: ["id", "name", "colour"])
            try await store.transaction(tenant: "a") { store in try store.setTableShapes([renamed]) }
            #expect(try await store.transaction(tenant: "a") { store in try store.tableShapes() } == [item, renamed, nul])
        }
    }

    // MARK: The server's logic

    @Test(arguments: StoreKind.allCases)
    func aSharedListReachesTheMemberItIsSharedWith(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let rules = try SyncRules(roots: ["list"], follows: ["item": "listID"])
            let server = SyncServer(store: store, rules: rules, maximumClockSkewMilliseconds: 60_000, wallClock: { Self.wall })
            let shapes = [
                SyncTableShape(table: "list", columns: ["id", "name"]),
                SyncTableShape(table: "item", columns: ["id", "listid", "title"], references: ["listid": "list"]),
            ]
            let stamp = SyncStamp(time: HybridTimestamp(milliseconds: Self.wall), replica: "ana-phone")
            let transaction = SyncTransaction(id: 1, stamp: stamp, changes: [
                SyncChange(table: "list", key: .text("l1"), kind: .insert, columns: [SyncColumnValue(name: "name", value: .text("Groceries"))], stamp: stamp),
                SyncChange(table: "item", key: .text("i1"), kind: .insert, columns: [
                    SyncColumnValue(name: "listid", value: .text("l1")), SyncColumnValue(name: "title", value: .text("Milk")),
                ], stamp: stamp),
            ])
            let pushed = try await server.push(
                PushRequest(replica: "ana-phone", baseTransactionID: 0, baseDigest: nil, schemaVersion: 1, transactions: [transaction], tables: shapes),
                tenant: "t", user: "ana")
            #expect(pushed.outcome == .accepted, "\(pushed.reason ?? "")")
            let space = SyncSpace.shared(table: "list", key: .text("l1"))

            let before = try await server.pull(PullRequest(replica: "bo-phone", cursor: 0, limit: 100), tenant: "t", user: "bo")
            #expect(before.changes.isEmpty && before.events == nil, "bo sees nothing of ana's list")
            // Ana owns the list from its insert on: every row of it is in the log from there, so her
            // other device pulls them as changes, with no space to move in.
            let anasOther = try await server.pull(PullRequest(replica: "ana-laptop", cursor: 0, limit: 100), tenant: "t", user: "ana")
            #expect(anasOther.events == nil)
            #expect(anasOther.changes.map(\.change.key) == [.text("l1"), .text("i1")] && anasOther.changes.map(\.space) == [space, space],
                    "the item lives in its list's space")

            try await server.setMember("bo", role: .viewer, table: "list", key: .text("l1"), tenant: "t")
            let after = try await server.pull(PullRequest(replica: "bo-phone", cursor: before.nextCursor, limit: 100), tenant: "t", user: "bo")
            #expect(after.events == [SpaceEvent(sequence: 3, kind: .joined, space: space)], "joining is a point of the sequence")
            let snapshot = try await server.snapshot(SnapshotRequest(replica: "bo-phone", after: nil, limit: 100, space: space), tenant: "t", user: "bo")
            #expect(snapshot.rows.map(\.key) == [.text("l1"), .text("i1")] && snapshot.rows.allSatisfy { $0.space == space },
                    "a space's root first, then the rows that follow it")
            #expect(snapshot.totalRows == 2)
            let members = try await server.membership(
                MembershipRequest(table: "list", key: .text("l1")), action: .members, tenant: "t", user: "bo")
            #expect(members.members == [SyncMember(user: "ana", role: .owner), SyncMember(user: "bo", role: .viewer)])
        }
    }
}

extension SyncStoreContractTests {
    /// A device's key may hold a NUL character, and so may the space of its row: counted and found
    /// whole, not cut at the NUL (where it would meet another space's name).
    @Test(arguments: StoreKind.allCases)
    func aSpaceWhoseKeyHoldsANulIsCountedAndFoundWhole(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let nul = SyncSpace.shared(table: "list", key: .text("l\u{0}1"))
            let cut = SyncSpace.shared(table: "list", key: .text("l"))
            let read = try await store.transaction(tenant: "t") { store in
                try store.setRowState(Self.state(1), table: "list", key: .text("l\u{0}1"), sequence: 1, placement: RowPlacement(space: nul))
                try store.setRowState(Self.state(2), table: "list", key: .text("l"), sequence: 2, placement: RowPlacement(space: cut))
                let change = SyncChange(
                    table: "list", key: .text("l\u{0}1"), kind: .update, columns: [SyncColumnValue(name: "i", value: .integer(1))],
                    stamp: SyncStamp(time: HybridTimestamp(milliseconds: Self.wall), replica: "w"))
                _ = try store.appendChange(change, origin: "r", batch: nil, space: nul, movedFrom: nil)
                _ = try store.appendChange(change, origin: "r", batch: nil, space: cut, movedFrom: nil)
                return (
                    try store.rowCount(in: [nul]), try store.rowCount(in: [cut]), try store.rowCount(in: [nul, cut]),
                    try store.changes(after: 0, through: 10, visibleIn: [nul], batch: nil).map(\.space),
                    try store.changes(after: 0, through: 10, visibleIn: [cut], batch: nil).map(\.space))
            }
            #expect(read.0 == 1 && read.1 == 1 && read.2 == 2)
            #expect(read.3 == [nul])
            #expect(read.4 == [cut])
        }
    }
}

extension SyncStoreContractTests {
    /// Garbage collection drops memberships that ended at or before the horizon, and keeps the rest.
    @Test(arguments: StoreKind.allCases)
    func membershipsThatEndedBeforeTheHorizonArePruned(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let read = try await store.transaction(tenant: "t") { store in
                try store.setMember("ana", role: .owner, in: Self.list, sequence: 1)
                try store.setMember("bob", role: .viewer, in: Self.list, sequence: 2)
                try store.setMember("bob", role: nil, in: Self.list, sequence: 4)
                try store.setMember("cleo", role: .editor, in: Self.list, sequence: 5)
                try store.setMember("cleo", role: nil, in: Self.list, sequence: 9)
                try store.pruneMemberships(through: 6)
                return (
                    try store.nextMembershipChange(of: "bob", after: 0), try store.nextMembershipChange(of: "cleo", after: 6),
                    try store.members(of: Self.list))
            }
            #expect(read.0 == nil, "bob's membership ended at 4: its history is gone")
            #expect(read.1 == MembershipChange(sequence: 9, space: Self.list, joined: false), "cleo's ended after the horizon: kept")
            #expect(read.2 == [SyncMember(user: "ana", role: .owner)])
        }
    }
}

extension SyncStoreContractTests {
    /// A pull under sharing rules counts a bounded part of a transaction too large for one page, not
    /// its whole rest, for each page; and the pages still carry every change once, in order.
    @Test(arguments: StoreKind.allCases)
    func countingAPageUnderRulesReadsABoundedPartOfALargeTransaction(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let rules = try SyncRules(roots: ["list"], follows: ["item": "listID"])
            let server = SyncServer(store: store, rules: rules, maximumClockSkewMilliseconds: 60_000, wallClock: { Self.wall })
            let small = Self.transaction(1, keys: [.text("a"), .text("b")])
            let large = Self.transaction(2, keys: (0..<1_200).map { .text(String(format: "n%04d", $0)) })
            let pushed = try await Self.push(server, [small, large])
            #expect(pushed.outcome == .accepted && pushed.appliedThrough == 2)
            let spaces: [SyncSpace] = [.common]
            let counted = try await store.transaction(tenant: "t") { store in
                (try store.batchSizes(after: 0, through: 10, visibleIn: spaces), try store.batchSizes(after: 600, through: 610, visibleIn: spaces))
            }
            // The range's last transaction, which runs on past it, is counted only so far.
            #expect(counted.0.map(\.batch) == [1, 3] && counted.0.first?.changes == 2)
            #expect(counted.0.reduce(0) { $0 + $1.changes } <= LogBatchSize.countedChanges(limit: 10), "\(counted.0)")
            #expect(counted.0.last?.last == LogBatchSize.countedThrough(after: 0, through: 10))
            #expect(counted.1.map(\.batch) == [3] && counted.1.reduce(0) { $0 + $1.changes } <= LogBatchSize.countedChanges(limit: 10))
            #expect(counted.1.first?.bytes ?? 0 > 0, "the visible changes counted weigh something")

            var pages: [[Int64]] = []
            var cursor: Int64 = 0
            while true {
                let page = try await server.pull(PullRequest(replica: "p", cursor: cursor, limit: 10), tenant: "t", user: "bo")
                pages.append(page.changes.map(\.sequence))
                cursor = page.nextCursor
                guard page.hasMore, pages.count < 200 else { break }
            }
            // A page reads its ten sequence numbers; the large transaction's rest rides along only once
            // it is at most 256 changes (the last page).
            #expect(pages.dropLast().allSatisfy { $0.count == 10 }, "\(pages.map(\.count))")
            #expect((pages.last?.count ?? 0) <= 10 + 256, "\(pages.map(\.count))")
            #expect(pages.flatMap { $0 } == Array(1...1_202))
        }
    }
}
