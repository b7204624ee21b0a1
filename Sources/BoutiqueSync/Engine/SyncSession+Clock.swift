extension SyncSession {
    /// How far the measured offset to the server's clock may drift from the recorded one before it is
    /// written again: a reply's time is late by its trip, so offsets jitter by a few milliseconds.
    static let clockOffsetTolerance: Int64 = 250

    /// Offsets smaller than this are taken as none. A reply's time is read before its trip back, so a
    /// measured offset is off by up to that trip (hundreds of milliseconds on a loaded device or
    /// network): correcting a clock that is right by such an amount would stamp a later write before
    /// another device's earlier one. Clocks that are really wrong are off by far more.
    static let clockOffsetDeadBand: Int64 = 1_000

    /// Takes the server's time from a reply: the difference to this device's clock corrects the wall
    /// time of every later stamp BoutiqueDB takes on this file, so a device whose clock runs fast (or
    /// slow) stops winning (or losing) conflicts for it after one exchange with the server.
    ///
    /// The offset is written to the file only when it moved by more than ``clockOffsetTolerance``, so
    /// an idle long poll costs no write; one within ``clockOffsetDeadBand`` counts as none.
    func observeServerTime(_ time: HybridTimestamp) async throws {
        guard time.milliseconds > 0 else { return }
        let local = Int64(clamping: options.now())
        let measured = Int64(clamping: time.milliseconds) - local
        let offset = abs(measured) < Self.clockOffsetDeadBand ? 0 : measured
        if let recorded = recordedClockOffset, abs(offset - recorded) <= Self.clockOffsetTolerance { return }
        try await database.write { conn in
            try ReplicaRecordRow.change(SQLRunner(conn)) { $0.clockOffset = offset }
        }
        recordedClockOffset = offset
    }

    /// Moves the file's clock past `stamp`, a stamp seen in a pulled change, in the caller's write
    /// transaction: a local write made after seeing a remote change is stamped after it.
    static func advanceClock(past stamp: HybridTimestamp?, _ sql: SQLRunner) throws {
        guard let stamp else { return }
        try ReplicaRecordRow.advanceClock(past: Int64(bitPattern: stamp.rawValue), sql)
    }
}
