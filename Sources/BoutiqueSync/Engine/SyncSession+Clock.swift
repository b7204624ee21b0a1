extension SyncSession {
    /// How far the measured offset to the server's clock may drift from the recorded one before it is
    /// written again: a reply's time is late by its trip, so offsets jitter by a few milliseconds.
    static let clockOffsetTolerance: Int64 = 250

    /// Offsets smaller than this are taken as none: a clock that is really wrong is off by far more,
    /// and correcting one that is right by a small amount would stamp a later write before another
    /// device's earlier one.
    static let clockOffsetDeadBand: Int64 = 1_000

    /// Takes the server's time from a reply: the difference to this device's clock corrects the wall
    /// time of every later stamp BoutiqueDB takes on this file, so a device whose clock runs fast (or
    /// slow) stops winning (or losing) conflicts for it after one exchange with the server.
    ///
    /// The server read its clock somewhere between the request leaving (`span.askedAt`) and its
    /// answer arriving (`span.answeredAt`), so the offset is only known to lie in a range as wide as
    /// the round trip: a slow trip (a loaded device, a long poll) widens the range, it does not move
    /// the offset. The correction taken is the smallest the range allows; one within
    /// ``clockOffsetDeadBand`` counts as none. The offset is written to the file only when the one
    /// recorded falls outside the range and moved by more than ``clockOffsetTolerance``, so an idle
    /// long poll costs no write.
    func observeServerTime(_ time: HybridTimestamp, _ span: ReplySpan) async throws {
        guard time.milliseconds > 0 else { return }
        let server = Int64(clamping: time.milliseconds)
        let answeredAt = Int64(clamping: span.answeredAt ?? options.now())
        let askedAt = Int64(clamping: span.askedAt)
        let bounds = min(server - answeredAt, server - askedAt)...max(server - answeredAt, server - askedAt)
        let smallest = bounds.contains(0) ? 0 : (bounds.lowerBound > 0 ? bounds.lowerBound : bounds.upperBound)
        let offset = abs(smallest) < Self.clockOffsetDeadBand ? 0 : smallest
        if let recorded = recordedClockOffset, bounds.contains(recorded) || abs(offset - recorded) <= Self.clockOffsetTolerance {
            return
        }
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

/// When a request left and when its answer arrived, by this device's clock (milliseconds since 1970):
/// the span in which the server read the time it answered with.
struct ReplySpan: Sendable {
    /// When the request left.
    let askedAt: UInt64
    /// When the answer arrived, or `nil` for "now", read when the answer's time is taken.
    var answeredAt: UInt64?

    init(askedAt: UInt64, answeredAt: UInt64? = nil) {
        self.askedAt = askedAt
        self.answeredAt = answeredAt
    }
}
