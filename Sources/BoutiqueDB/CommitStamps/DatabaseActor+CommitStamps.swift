import BoutiqueSQLite

extension DatabaseActor {
    /// Starts stamping local commits to synced tables (see ``CommitStamper``). Called once the change
    /// capture is installed, since the stamper reads what it recorded.
    func installCommitStamper() {
        observers.stamper = CommitStamper(capture: observers.capture, writer: Self.newWriterID())
    }

    /// A writer id: 64 random bits in hex, enough that two open databases never share one, and short,
    /// since every synced change carries it.
    static func newWriterID() -> String {
        let hex = String(UInt64.random(in: .min ... .max), radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The writer id of the stamps this open database gives its commits to synced tables.
    ///
    /// ```swift
    /// let writer = await database.commitStampWriter
    /// ```
    public var commitStampWriter: String { observers.stamper?.writer ?? "" }

    /// Reads the file's synced tables again before the next commit: for a sync engine that has just
    /// changed them. (Another process's change is noticed with ``DatabaseOptions/multiProcess``.)
    ///
    /// ```swift
    /// await database.reloadCommitStamps()
    /// ```
    public func reloadCommitStamps() {
        observers.stamper?.reload()
    }

    /// Sets the wall clock (milliseconds since 1970) and the writer id commit stamps are taken with:
    /// for simulations that run on virtual time and must replay exactly. `nil` keeps what is set.
    ///
    /// ```swift
    /// await database.setCommitStampClock({ virtualTime.milliseconds }, writer: "device-a")
    /// ```
    public func setCommitStampClock(_ wallClock: (@Sendable () -> UInt64)?, writer: String?) {
        guard let stamper = observers.stamper else { return }
        if let wallClock { stamper.wallClock = wallClock }
        if let writer { stamper.writer = writer }
    }
}
