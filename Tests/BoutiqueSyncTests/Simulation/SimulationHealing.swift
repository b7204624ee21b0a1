/// Once a simulation's network heals: every device syncs, a round at a time (the clock moving a
/// millisecond before each), until a whole round moves nothing. `sync` syncs one device and says
/// whether it moved something (pushed, applied, or has work left such as uploads). Returns whether the
/// devices went quiet within `rounds` rounds.
///
/// ```swift
/// let quiet = try await syncUntilQuiet(devices, time: time) { device in
///     let report = try await device.sync!.synchronize()
///     return report.pushed > 0 || report.applied > 0
/// }
/// ```
func syncUntilQuiet(
    _ devices: [SimulatedDevice], time: VirtualTime, rounds: Int = 10, _ sync: (SimulatedDevice) async throws -> Bool
) async throws -> Bool {
    for _ in 0..<rounds {
        var moved = false
        for device in devices {
            time.advance(by: 1)
            if try await sync(device) { moved = true }
        }
        if !moved { return true }
    }
    return false
}
