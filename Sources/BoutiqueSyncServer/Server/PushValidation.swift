/// The checks a push passes before anything is applied: a refusal names the first problem found.
enum PushValidation {
    /// Why `request` is refused, `nil` when it is acceptable.
    static func problem(
        in request: PushRequest, wall: UInt64, maximumSkew: UInt64, minimumSchemaVersion: Int, limits: SyncServerLimits = SyncServerLimits()
    ) -> (kind: SyncRefusal.Reason, reason: String)? {
        guard let reason = reason(refusing: request, wall: wall, maximumSkew: maximumSkew, minimumSchemaVersion: minimumSchemaVersion)
            ?? misnamed(request, limits: limits)
        else { return nil }
        if request.protocolVersion != SyncProtocol.version { return (.protocolMismatch, reason) }
        if request.schemaVersion < minimumSchemaVersion { return (.appTooOld, reason) }
        if reason.contains("ahead of the server") { return (.clockSkew, reason) }
        return (.invalid, reason)
    }

    private static func reason(refusing request: PushRequest, wall: UInt64, maximumSkew: UInt64, minimumSchemaVersion: Int) -> String? {
        guard request.protocolVersion == SyncProtocol.version else {
            return "protocol version \(request.protocolVersion) is not \(SyncProtocol.version)"
        }
        guard !request.replica.isEmpty, request.replica != SyncServer.serverReplica else {
            return "the replica id '\(request.replica)' cannot push"
        }
        guard request.schemaVersion >= minimumSchemaVersion else {
            return "schema version \(request.schemaVersion) is older than the server's minimum \(minimumSchemaVersion); update the app"
        }
        guard request.baseTransactionID >= 0 else { return "a negative base transaction id" }
        if let part = request.part {
            guard request.transactions.count == 1 else { return "a part of a transaction carries \(request.transactions.count) transactions, not one" }
            guard part.from >= 0, part.through > part.from else { return "a part of a transaction goes from \(part.from) through \(part.through)" }
        }
        if let problem = problem(in: request.tables ?? []) { return problem }
        var previous = request.baseTransactionID
        let (limit, overflow) = wall.addingReportingOverflow(maximumSkew)
        for transaction in request.transactions {
            guard transaction.id > 0 else { return "transaction id \(transaction.id) is not positive" }
            guard transaction.id > previous || transaction.id <= request.baseTransactionID else {
                return "transaction \(transaction.id) is out of order"
            }
            previous = max(previous, transaction.id)
            // A stamp names the writing session of the device's file (never reused by a restored or
            // copied file), not the replica id the watermark is kept under.
            guard !transaction.stamp.replica.isEmpty, transaction.stamp.replica != SyncServer.serverReplica else {
                return "transaction \(transaction.id) is stamped by '\(transaction.stamp.replica)', which cannot write"
            }
            if !overflow, transaction.stamp.time.milliseconds > limit {
                return "transaction \(transaction.id) is stamped \(transaction.stamp.time.milliseconds) ms, more than \(maximumSkew) ms ahead of the server's \(wall) ms: check the device's clock"
            }
            guard transaction.digest == SyncDigest.of(id: transaction.id, stamp: transaction.stamp, changes: transaction.changes)
                || transaction.digest == SyncDigest.of(id: transaction.id, time: transaction.stamp.time, changes: transaction.changes)
            else {
                return "transaction \(transaction.id)'s digest does not match its content"
            }
            var rows: Set<RowIdentity> = []
            for change in transaction.changes {
                guard change.stamp == transaction.stamp else { return "a change of transaction \(transaction.id) carries another stamp" }
                guard !change.table.isEmpty else { return "a change without a table name" }
                switch change.key {
                case .text, .blob: break
                default: return "the key of a change to '\(change.table)' is \(change.key.storageClass), not text or blob"
                }
                // One row in two cases is still one row (the server folds names: see `PushNames`).
                guard rows.insert(RowIdentity(table: PushNames.fold(change.table), key: change.key)).inserted else {
                    return "transaction \(transaction.id) changes one row of '\(change.table)' twice"
                }
                var names: Set<String> = []
                for column in change.columns {
                    guard !column.name.isEmpty, names.insert(column.name.lowercased()).inserted else {
                        return "a change to '\(change.table)' names column '\(column.name)' twice or not at all"
                    }
                    // Collaborative text columns' values are checked once the tenant's shapes are read
                    // (``PushedText``): any other column's value is opaque bytes.
                }
                if change.kind == .delete, !change.columns.isEmpty { return "a delete from '\(change.table)' carries columns" }
            }
        }
        return nil
    }

    /// The transactions setting a value larger than the limit, each with its first such change and
    /// why: each is refused alone, as a change the user may not make is.
    static func oversizedValues(in request: PushRequest, limits: SyncServerLimits) -> [Int64: PushApplier.Denial] {
        var denials: [Int64: PushApplier.Denial] = [:]
        for transaction in request.transactions {
            for change in transaction.changes {
                guard let column = change.columns.first(where: { RequestLimits.bytes(of: $0.value) > limits.maximumValueBytes }) else { continue }
                denials[transaction.id] = PushApplier.Denial(
                    change: change,
                    reason: "transaction \(transaction.id) sets column '\(column.name.prefix(100))' of '\(change.table.prefix(100))' to \(RequestLimits.bytes(of: column.value)) bytes; the server takes values of at most \(limits.maximumValueBytes) bytes",
                    kind: .tooLarge)
                break
            }
        }
        return denials
    }

    /// The first replica id, table or column name, or key longer than the limits, named.
    private static func misnamed(_ request: PushRequest, limits: SyncServerLimits) -> String? {
        if let problem = RequestLimits.replicaProblem(request.replica, limits: limits) ?? RequestLimits.secretProblem(request.replicaSecret) {
            return problem
        }
        if let retired = request.retiredReplica, let problem = RequestLimits.replicaProblem(retired, limits: limits) { return problem }
        if let problem = RequestLimits.secretProblem(request.retiredReplicaSecret) { return "the retired replica's secret: \(problem)" }
        for transaction in request.transactions {
            // The writer id is kept in the row states with every value the transaction wins, and sent
            // with them to every device: bounded as a replica id is.
            if let problem = RequestLimits.writerProblem(transaction.stamp.replica, limits: limits) {
                return "transaction \(transaction.id): \(problem)"
            }
            for change in transaction.changes {
                if let problem = RequestLimits.nameProblem(change.table, of: "a table", limits: limits)
                    ?? RequestLimits.keyProblem(change.key, limits: limits)
                {
                    return "transaction \(transaction.id): \(problem)"
                }
                for column in change.columns {
                    if let problem = RequestLimits.nameProblem(column.name, of: "a column", limits: limits) {
                        return "transaction \(transaction.id): \(problem)"
                    }
                }
            }
        }
        return nil
    }

    /// Table shapes are a schema's worth: bounded in number and size, every name non-empty.
    private static func problem(in shapes: [SyncTableShape]) -> String? {
        guard shapes.count <= SyncRules.maximumTables else { return "more than \(SyncRules.maximumTables) table shapes" }
        func bad(_ name: String) -> Bool { name.isEmpty || name.utf8.count > 256 }
        for shape in shapes {
            guard !bad(shape.table) else { return "a table shape's name is empty or longer than 256 bytes" }
            guard shape.columns.count <= 2_000, shape.references.count <= shape.columns.count else {
                return "table shape '\(shape.table)' has more than 2000 columns or more references than columns"
            }
            if shape.columns.contains(where: bad) || shape.references.contains(where: { bad($0.key) || bad($0.value) }) {
                return "table shape '\(shape.table)' has an empty name or one longer than 256 bytes"
            }
            if let collaborative = shape.collaborativeText, !collaborative.allSatisfy(shape.columns.contains) {
                return "table shape '\(shape.table)' names collaborative text columns it does not have"
            }
        }
        return nil
    }

    struct RowIdentity: Hashable {
        let table: String
        let key: DatabaseValue
    }
}
