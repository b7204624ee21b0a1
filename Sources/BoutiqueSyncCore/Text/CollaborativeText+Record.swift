extension CollaborativeText {
    /// The state as one SQLite record, the form sync stores it in; replicas that applied the same
    /// operations (and compacted at the same versions) write the same bytes.
    ///
    /// ```swift
    /// let bytes = text.record()
    /// let same = try CollaborativeText(record: bytes)   // same.text == text.text
    /// ```
    ///
    /// Layout: the format (1), the number of replicas *n*, their ids, per replica the counters applied
    /// and compacted through, the number of runs, the runs, then each waiting operation's record as a
    /// blob. A run is characters one replica typed in a row that still sit in a row: its first id, then
    /// its text (or, once deleted, just its length: tombstones keep no text), its parent (NULL for the
    /// start of the text), its side and right origin in one integer (0 left, 1 right before the end,
    /// 2 + the zigzag-coded origin right before it), and its deletion (NULL while visible). An id folds
    /// into one integer, counter × *n* + replica index, and the run's id, parent and origin are written
    /// as differences from the previous run's last id, so a run costs a few bytes of metadata.
    public func record() -> [UInt8] {
        // Replicas are written sorted by id, so that the bytes do not depend on the order this replica
        // met the others in.
        let sorted = replicas.indices.sorted { replicas[$0].utf8.lexicographicallyPrecedes(replicas[$1].utf8) }
        var rank = [Int64](repeating: 0, count: replicas.count)
        for (position, index) in sorted.enumerated() { rank[index] = Int64(position) }
        let count = Int64(replicas.count)
        func fold(_ replica: Int32, _ counter: Int) -> Int64 { Int64(counter) * count + rank[Int(replica)] }
        func reference(_ node: Int32) -> Int64 { fold(nodes[Int(node)].replica, nodes[Int(node)].counter) }
        var values: [DatabaseValue] = [.integer(1), .integer(count)]
        values.append(contentsOf: sorted.map { .text(replicas[$0]) })
        values.append(contentsOf: sorted.map { .integer(Int64(applied[$0])) })
        values.append(contentsOf: sorted.map { .integer(Int64(compacted[$0])) })
        let order = documentOrder()
        let runs = Self.runs(of: order, in: self)
        values.append(.integer(Int64(runs.count)))
        // Ids are written relative to the last id of the run before: small numbers, mostly one byte or
        // none, since a run usually hangs on the run before it.
        var previous: Int64 = 0
        for run in runs {
            let first = nodes[Int(order[run.lowerBound])]
            values.append(.integer(reference(order[run.lowerBound]) - previous))
            if first.isDeleted {
                values.append(.integer(Int64(run.count)))
            } else {
                var view = String.UnicodeScalarView()
                for node in order[run] { view.append(nodes[Int(node)].scalar) }
                values.append(.text(String(view)))
            }
            values.append(first.parent == Self.root ? .null : .integer(reference(first.parent) - previous))
            switch (first.side, first.rightOrigin) {
            case (.left, _): values.append(.integer(0))
            case (.right, Self.end): values.append(.integer(1))
            case (.right, let origin): values.append(.integer(2 + Self.zigzag(reference(origin) - previous)))
            }
            values.append(first.isDeleted ? .integer(fold(first.deleter, first.deletionCounter)) : .null)
            previous = reference(order[run.upperBound - 1])
        }
        values.append(.integer(Int64(pending.count)))
        values.append(contentsOf: pending.sorted { $0.id < $1.id }.map { .blob($0.record()) })
        return RecordEncoder.encode(values)
    }

    /// Runs of nodes, as ranges of `order`. A node continues the run before it when its writer typed it
    /// right after that run's last node and the tree still says so: it hangs on the right of that node,
    /// with the right origin a run's later characters have, and in the same deletion state.
    private static func runs(of order: [Int32], in text: CollaborativeText) -> [Range<Int>] {
        var runs: [Range<Int>] = []
        for (position, node) in order.enumerated() {
            if let last = runs.last {
                let head = text.nodes[Int(order[last.lowerBound])]
                let previous = order[last.upperBound - 1]
                let entry = text.nodes[Int(node)]
                let chainOrigin = head.side == .right ? head.rightOrigin : head.parent
                if entry.parent == previous, entry.side == .right, entry.rightOrigin == chainOrigin,
                   entry.replica == head.replica, entry.counter == head.counter + last.count,
                   entry.deleter == head.deleter, entry.deletionCounter == head.deletionCounter {
                    runs[runs.count - 1] = last.lowerBound..<(position + 1)
                    continue
                }
            }
            runs.append(position..<(position + 1))
        }
        return runs
    }

    /// A signed difference as a non-negative integer, small for small differences either way.
    static func zigzag(_ value: Int64) -> Int64 { value >= 0 ? value << 1 : ((-value) << 1) - 1 }

    static func unzigzag(_ value: Int) -> Int { value & 1 == 0 ? value >> 1 : -((value + 1) >> 1) }

    /// The most characters (tombstones included) a state read from a record may hold: a bound that
    /// keeps a damaged length from allocating without limit, far above any text edited by people.
    static let maximumNodes = 1 << 22

    /// Reads a state written by ``record()``, checking that it is one: every reference resolves, the
    /// tree reads back in the recorded order, siblings are in the merge's order, counters agree.
    ///
    /// - Throws: a ``/BoutiqueDB/BoutiqueError`` for bytes that are not such a record.
    public init(record bytes: [UInt8]) throws {
        var reader = try TextRecordReader(bytes, what: "a collaborative text state")
        _ = try reader.integer(in: 1...1, "format")
        let count = try reader.integer(in: 0...(1 << 20), "replica count")
        guard count <= reader.values.count else { throw reader.malformed("replica count \(count)") }
        var text = CollaborativeText()
        for _ in 0..<count {
            let replica = try reader.text("replica")
            guard text.replicaIndex[replica] == nil else { throw reader.malformed("replica \(replica) twice") }
            _ = text.replicaNumber(replica)
        }
        let counters = 0...Self.maximumCounter
        for index in 0..<count { text.applied[index] = try reader.integer(in: counters, "applied counter") }
        for index in 0..<count { text.compacted[index] = try reader.integer(in: counters, "compacted counter") }
        // A reference folds a replica index into a counter; it is read back only with replicas to name.
        func id(_ raw: Int) throws(BoutiqueError) -> (replica: Int32, counter: Int) {
            guard count > 0 else { throw reader.malformed("reference \(raw) without replicas") }
            let id = (replica: Int32(raw % count), counter: raw / count)
            guard id.counter < text.applied[Int(id.replica)] else { throw reader.malformed("reference \(raw) to a counter not applied") }
            return id
        }
        let references = 0...(Self.maximumCounter * max(count, 1))
        let deltas = -references.upperBound...references.upperBound
        var previous = 0
        func relative(_ delta: Int, _ field: String) throws(BoutiqueError) -> Int {
            let folded = previous + delta
            guard references.contains(folded) else { throw reader.malformed("\(field) \(delta)") }
            return folded
        }
        let runCount = try reader.integer(in: 0...Self.maximumNodes, "run count")
        var parents: [Int?] = [nil]
        var origins: [Int?] = [nil]
        var order: [Int32] = []
        for _ in 0..<runCount {
            let firstFolded = try relative(try reader.integer(in: deltas, "id"), "id")
            let first = try id(firstFolded)
            let content = try reader.next()
            let scalars: [Unicode.Scalar]
            let length: Int
            switch content {
            case .text(let string): scalars = Array(string.unicodeScalars); length = scalars.count
            case .integer(let raw) where raw >= 1 && raw <= Int64(Self.maximumNodes): scalars = []; length = Int(raw)
            default: throw reader.malformed("run content \(content)")
            }
            guard length >= 1, text.nodes.count + length <= Self.maximumNodes + 1,
                  first.counter + length <= text.applied[Int(first.replica)] else {
                throw reader.malformed("run of \(length) from counter \(first.counter)")
            }
            let parentValue = try reader.next()
            let parent: Int?
            switch parentValue {
            case .null: parent = nil
            case .integer(let raw) where deltas.contains(Int(truncatingIfNeeded: raw)) && Int64(Int(truncatingIfNeeded: raw)) == raw:
                parent = try relative(Int(raw), "parent")
            default: throw reader.malformed("parent \(parentValue)")
            }
            let shape = try reader.integer(in: 0...(2 * references.upperBound + 3), "side")
            let origin = shape >= 2 ? try relative(Self.unzigzag(shape - 2), "right origin") : nil
            guard shape != 0 || parent != nil else { throw reader.malformed("a run on the left of the start") }
            let deletionValue = try reader.next()
            var deletion: (replica: Int32, counter: Int)?
            switch deletionValue {
            case .null: guard !scalars.isEmpty else { throw reader.malformed("a deleted run that is not marked deleted") }
            case .integer(let raw) where raw >= 0 && raw <= Int64(references.upperBound) && scalars.isEmpty: deletion = try id(Int(raw))
            default: throw reader.malformed("deletion \(deletionValue)")
            }
            for offset in 0..<length {
                let node = Int32(text.nodes.count)
                let counter = first.counter + offset
                guard text.lookup[Int(first.replica)][counter] == nil else { throw reader.malformed("character \(counter) twice") }
                text.lookup[Int(first.replica)][counter] = node
                text.nodes.append(Node(replica: first.replica, counter: counter, scalar: scalars.isEmpty ? Self.tombstone : scalars[offset],
                                       parent: offset == 0 ? Self.root : node - 1, side: offset == 0 && shape == 0 ? .left : .right,
                                       rightOrigin: Self.end, deleter: deletion?.replica ?? -1, deletionCounter: deletion?.counter ?? 0))
                text.leftChildren.append([])
                text.rightChildren.append([])
                order.append(node)
                // Later characters follow the first; their right origin is the first's (or the first's
                // parent, for a run on the left), resolved below with the others.
                parents.append(offset == 0 ? parent.map { $0 + 1 } ?? 0 : nil)
                origins.append(offset == 0 ? origin.map { $0 + 1 } : -1)
            }
            previous = firstFolded + (length - 1) * count
        }
        // Resolve references now that every node exists. Encoded references are stored plus one, so
        // that zero (the root) and "none" stay apart from real ids.
        for index in 1..<text.nodes.count {
            if let encoded = parents[index] {
                if encoded == 0 {
                    text.nodes[index].parent = Self.root
                } else {
                    let target = try id(encoded - 1)
                    guard let node = text.lookup[Int(target.replica)][target.counter] else { throw reader.malformed("parent \(target) missing") }
                    text.nodes[index].parent = node
                }
            }
        }
        for index in 1..<text.nodes.count {
            guard let encoded = origins[index] else {
                text.nodes[index].rightOrigin = Self.end
                continue
            }
            if encoded == -1 {
                // A later character of a run: what followed the run's first character when typed.
                let previous = text.nodes[index - 1]
                text.nodes[index].rightOrigin = previous.side == .left ? previous.parent : previous.rightOrigin
            } else {
                let target = try id(encoded - 1)
                guard let node = text.lookup[Int(target.replica)][target.counter] else { throw reader.malformed("right origin \(target) missing") }
                text.nodes[index].rightOrigin = node
            }
        }
        for node in order {
            let entry = text.nodes[Int(node)]
            if entry.side == .left { text.leftChildren[Int(entry.parent)].append(node) } else { text.rightChildren[Int(entry.parent)].append(node) }
        }
        guard text.documentOrder() == order else { throw reader.malformed("runs that do not form the tree they describe") }
        try text.checkSiblingOrder(reader)
        let pendingCount = try reader.integer(in: 0...reader.values.count, "waiting count")
        for _ in 0..<pendingCount {
            let value = try reader.next()
            guard case .blob(let bytes) = value else { throw reader.malformed("waiting operation \(value)") }
            text.pending.append(try TextOperation(record: bytes))
        }
        guard reader.isAtEnd else { throw reader.malformed("\(reader.values.count) values") }
        self = text
    }

    /// Checks that every node's children are in the order merging puts them in.
    private func checkSiblingOrder(_ reader: TextRecordReader) throws(BoutiqueError) {
        for index in nodes.indices {
            for pair in zip(leftChildren[index], leftChildren[index].dropFirst()) where !(id(of: pair.0) < id(of: pair.1)) {
                throw reader.malformed("left children out of order")
            }
            for pair in zip(rightChildren[index], rightChildren[index].dropFirst()) where !rightSiblingPrecedes(pair.0, pair.1) {
                throw reader.malformed("right children out of order")
            }
        }
    }
}
