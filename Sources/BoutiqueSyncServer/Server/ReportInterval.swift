/// At most one report per interval: for log lines about something that can happen on every check.
///
/// ```swift
/// var reports = ReportInterval(minimum: .seconds(60))
/// if reports.allows(at: .now) { log(event) }
/// ```
struct ReportInterval {
    /// The least time between two reports.
    let minimum: Duration
    private var last: ContinuousClock.Instant?

    init(minimum: Duration) {
        self.minimum = minimum
    }

    /// Whether a report at `now` may be made (and, if so, notes it as the latest).
    mutating func allows(at now: ContinuousClock.Instant) -> Bool {
        if let last, now < last.advanced(by: minimum) { return false }
        last = now
        return true
    }
}
