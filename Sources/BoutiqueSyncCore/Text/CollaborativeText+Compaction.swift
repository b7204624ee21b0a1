extension CollaborativeText {
    /// Drops the tombstones no operation can name any more: characters whose insertion and deletion
    /// are both in `stable`, with no kept character hanging below them or ordered by them.
    ///
    /// ```swift
    /// var stable = phone.version
    /// for other in otherVersions { stable.formMinimum(other) }
    /// try phone.compact(stableThrough: stable)
    /// ```
    ///
    /// `stable` must be causally stable: every replica has seen all of it, and every operation this
    /// replica has not applied yet was made by a replica that had seen all of it (a sync server knows
    /// this once every replica has pulled past it and pushed what it wrote before that pull). Then no
    /// operation still to come can be anchored to a dropped tombstone, because operations anchor only to
    /// characters with visible text below them. An operation that breaks the contract is refused by
    /// ``CollaborativeText/apply(_:)-(TextOperation)`` with an error rather than misplaced. Replicas that compact at the same version end
    /// with the same state, byte for byte.
    ///
    /// - Throws: ``/BoutiqueDB/BoutiqueError/invalidArgument(_:)`` when `stable` holds operations
    ///   this replica has not applied.
    public mutating func compact(stableThrough stable: TextVersion) throws {
        guard version.includes(stable) else {
            throw BoutiqueError.invalidArgument("compacting through \(stable), beyond what this text applied (\(version))")
        }
        let stableCounters = replicas.map { stable[$0] }
        var keep = [Bool](repeating: true, count: nodes.count)
        for index in 1..<nodes.count {
            let node = nodes[index]
            if node.isDeleted, node.counter < stableCounters[Int(node.replica)], node.deletionCounter < stableCounters[Int(node.deleter)] {
                keep[index] = false
            }
        }
        // A kept node keeps its parent (its place) and its right origin (its order among siblings); so
        // do the anchors of operations still waiting.
        var work: [Int32] = (0..<Int32(nodes.count)).filter { keep[Int($0)] }
        for case .insert(let insertion) in pending {
            for anchor in [insertion.parent, insertion.rightOrigin] {
                if let anchor, let node = node(for: anchor), !keep[Int(node)] {
                    keep[Int(node)] = true
                    work.append(node)
                }
            }
        }
        while let node = work.popLast() {
            let entry = nodes[Int(node)]
            for target in [entry.parent, entry.side == .right ? entry.rightOrigin : Self.end] where target >= 0 && !keep[Int(target)] {
                keep[Int(target)] = true
                work.append(target)
            }
        }
        for (index, replica) in replicas.enumerated() { compacted[index] = max(compacted[index], stable[replica]) }
        guard keep.contains(false) else { return }
        rebuild(keeping: keep)
    }

    /// Rebuilds the storage with only the kept nodes, renumbered in their old order.
    private mutating func rebuild(keeping keep: [Bool]) {
        var renumbered = [Int32](repeating: Self.end, count: nodes.count)
        var kept: [Node] = []
        for index in nodes.indices where keep[index] {
            renumbered[index] = Int32(kept.count)
            kept.append(nodes[index])
        }
        func map(_ node: Int32) -> Int32 { node < 0 ? node : renumbered[Int(node)] }
        var lefts: [[Int32]] = []
        var rights: [[Int32]] = []
        lefts.reserveCapacity(kept.count)
        rights.reserveCapacity(kept.count)
        for index in nodes.indices where keep[index] {
            lefts.append(leftChildren[index].filter { keep[Int($0)] }.map(map))
            rights.append(rightChildren[index].filter { keep[Int($0)] }.map(map))
        }
        for index in kept.indices {
            kept[index].parent = map(kept[index].parent)
            kept[index].rightOrigin = map(kept[index].rightOrigin)
        }
        lookup = lookup.map { _ in [:] }
        for index in kept.indices.dropFirst() { lookup[Int(kept[index].replica)][kept[index].counter] = Int32(index) }
        nodes = kept
        leftChildren = lefts
        rightChildren = rights
        order = nil
    }
}
