/// Spaces in the PostgreSQL store: not written yet; a server with rules needs the SQLite store.
extension PostgreSQLStoreTransaction {
    private func unsupported() -> BoutiqueError { .invalidArgument("the PostgreSQL store does not keep spaces yet") }
    func placement(table: String, key: DatabaseValue) throws -> RowPlacement? { throw unsupported() }
    func setRowState(_ state: RowRegister, table: String, key: DatabaseValue, sequence: Int64, placement: RowPlacement) throws { throw unsupported() }
    func setPlacement(_ placement: RowPlacement, table: String, key: DatabaseValue) throws { throw unsupported() }
    func children(of parent: SnapshotPosition) throws -> [SnapshotPosition] { throw unsupported() }
    func rows(in space: SyncSpace, after position: SnapshotPosition?, limit: Int) throws -> [SnapshotRow] { throw unsupported() }
    func rowCount(in spaces: [SyncSpace]) throws -> Int { throw unsupported() }
    func appendChange(_ change: SyncChange, origin: String, batch: Int64?, space: SyncSpace, movedFrom: SyncSpace?) throws -> (sequence: Int64, batch: Int64) { throw unsupported() }
    func changes(after: Int64, through: Int64, visibleIn spaces: [SyncSpace], batch: Int64?) throws -> [LoggedChange] { throw unsupported() }
    func reserveSequence() throws -> Int64 { throw unsupported() }
    func members(of space: SyncSpace) throws -> [SyncMember] { throw unsupported() }
    func setMember(_ user: String, role: SyncRole?, in space: SyncSpace, sequence: Int64) throws { throw unsupported() }
    func memberships(of user: String, at sequence: Int64?) throws -> [SyncSpace: SyncRole] { throw unsupported() }
    func nextMembershipChange(of user: String, after sequence: Int64) throws -> MembershipChange? { throw unsupported() }
    func tableShapes() throws -> [SyncTableShape] { [] }
    func setTableShapes(_ shapes: [SyncTableShape]) throws {}
}
