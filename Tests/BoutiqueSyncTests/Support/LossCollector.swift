@testable import BoutiqueSync
import BoutiqueSyncServer

extension BoutiqueSync {
    /// The losses reported so far that nobody read, taken at once: the channel keeps them for the
    /// first reader, and finishing the reader right away ends its sequence after them.
    func takeReportedLosses() async -> [SyncLoss] {
        let channel = await session.losses
        let stream = channel.stream()
        channel.finish()
        var losses: [SyncLoss] = []
        for await loss in stream { losses.append(loss) }
        return losses
    }
}

extension BoutiqueSync {
    /// The departures reported so far that nobody read, taken at once (as ``takeReportedLosses()``).
    func takeReportedDepartures() async -> [SyncDeparture] {
        let channel = await session.departures
        let stream = channel.stream()
        channel.finish()
        var departures: [SyncDeparture] = []
        for await departure in stream { departures.append(departure) }
        return departures
    }

    /// The refusals reported so far that nobody read, taken at once (as ``takeReportedLosses()``).
    func takeReportedRefusals() async -> [SyncRefusal] {
        let channel = session.refusals
        let stream = channel.stream()
        channel.finish()
        var refusals: [SyncRefusal] = []
        for await refusal in stream { refusals.append(refusal) }
        return refusals
    }
}

extension SyncServer {
    /// The visible rows of `table` in the server's state, by key, with their values.
    func visibleRows(_ table: String, tenant: String = "default") async throws -> [DatabaseValue: [String: DatabaseValue]] {
        var rows: [DatabaseValue: [String: DatabaseValue]] = [:]
        var position: SnapshotPosition?
        repeat {
            let page = try await snapshot(SnapshotRequest(replica: "check", after: position, limit: 500), tenant: tenant)
            for row in page.rows where row.table == table && row.state.isVisible { rows[row.key] = row.state.visibleValues }
            position = page.next
        } while position != nil
        return rows
    }
}
