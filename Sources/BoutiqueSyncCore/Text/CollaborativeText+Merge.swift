extension CollaborativeText {
    /// Merges another replica's state into this one: afterwards this text holds every character,
    /// deletion and waiting operation either held, as if it had applied both replicas' operations.
    ///
    /// ```swift
    /// var phone = try CollaborativeText(record: phoneBytes)
    /// try phone.merge(try CollaborativeText(record: serverBytes))   // a bootstrap meeting local edits
    /// ```
    ///
    /// Sync needs it where two whole states meet (a snapshot page reaching a device with edits of its
    /// own); operations stay the usual way in. The merge is a join: it commutes, repeats harmlessly, and
    /// states merged in any order write the same bytes, but for characters one side compacted away that
    /// the other still shows: they are deleted, and the merged texts read the same while their bytes
    /// may differ in those tombstones.
    ///
    /// - Throws: ``/BoutiqueDB/BoutiqueError/invalidArgument(_:)`` when `other` holds a character
    ///   hanging on one neither state holds (states that break ``compact(stableThrough:)``'s
    ///   contract); this text is then unchanged.
    public mutating func merge(_ other: CollaborativeText) throws {
        var merged = self
        try merged.absorb(other)
        self = merged
    }

    private mutating func absorb(_ other: CollaborativeText) throws(BoutiqueError) {
        // Storage order is application order at `other`: a node's parent and right origin come first.
        for index in 1..<other.nodes.count {
            let theirs = other.nodes[index]
            let id = other.id(of: Int32(index))
            if let mine = node(for: id) {
                if theirs.isDeleted { markDeleted(mine, by: other.replicas[Int(theirs.deleter)], counter: theirs.deletionCounter) }
                continue
            }
            // A character of a prefix this text applied and no longer holds was compacted away here.
            if let replica = replicaIndex[id.replica], id.counter < applied[Int(replica)] { continue }
            guard let parent = try anchor(theirs.parent, in: other, orElse: Self.root),
                  let rightOrigin = try anchor(theirs.rightOrigin, in: other, orElse: Self.end)
            else { throw .invalidArgument("merging a text whose character \(id) hangs on one this text lacks") }
            let writer = replicaNumber(id.replica)
            let node = Int32(nodes.count)
            nodes.append(Node(replica: writer, counter: id.counter, scalar: theirs.isDeleted ? Self.tombstone : theirs.scalar,
                              parent: parent, side: theirs.side, rightOrigin: theirs.side == .right ? rightOrigin : Self.end))
            leftChildren.append([])
            rightChildren.append([])
            lookup[Int(writer)][id.counter] = node
            attach(node)
            if theirs.isDeleted { markDeleted(node, by: other.replicas[Int(theirs.deleter)], counter: theirs.deletionCounter) }
        }
        // Characters this text shows that `other` compacted away were deleted there: compaction drops
        // only deleted characters, and `other` had applied every operation of their writer below its
        // mark. A replica that missed their deletion (it took the compacted state in a bootstrap after
        // losing a pulled page) would show them for ever otherwise. The deletion is recorded under the
        // character's own id: its real one is not known here.
        // Only for a mark this text has not met before: once it has (by compacting or merging), every
        // character of that writer below the mark that it holds was settled then, and no new one comes.
        for (index, replica) in other.replicas.enumerated() where other.compacted[index] > 0 {
            let mark = other.compacted[index]
            guard let mine = replicaIndex[replica], compacted[Int(mine)] < mark else { continue }
            for (counter, node) in lookup[Int(mine)] where counter < mark && !nodes[Int(node)].isDeleted
                && other.node(for: TextElementID(replica: replica, counter: counter)) == nil
            {
                markDeleted(node, by: replica, counter: counter)
            }
        }
        for (index, replica) in other.replicas.enumerated() {
            let mine = Int(replicaNumber(replica))
            applied[mine] = max(applied[mine], other.applied[index])
            compacted[mine] = max(compacted[mine], other.compacted[index])
        }
        for operation in other.pending where !pending.contains(operation) { pending.append(operation) }
        order = nil
        applyWaiting()
    }

    /// The node of this text that `other`'s node `reference` names (`fallback` for the root or the
    /// end); `nil` when this text lacks it.
    private func anchor(_ reference: Int32, in other: CollaborativeText, orElse fallback: Int32) throws(BoutiqueError) -> Int32? {
        if reference == Self.root || reference == Self.end { return fallback }
        return node(for: other.id(of: reference))
    }

    /// Records the deletion (`replica`, `counter`) of `node`, keeping the least of its deletions.
    private mutating func markDeleted(_ node: Int32, by replica: String, counter: Int) {
        let deleter = replicaNumber(replica)
        var entry = nodes[Int(node)]
        if entry.isDeleted, !Self.precedes(deleter, counter, entry.deleter, entry.deletionCounter, replicas) { return }
        entry.deleter = deleter
        entry.deletionCounter = counter
        entry.scalar = Self.tombstone
        nodes[Int(node)] = entry
        order = nil
    }
}
