/// The characters of a text that several replicas edit at once, as a sequence CRDT: concurrent edits
/// in different places all survive, runs typed concurrently at the same place stay whole (one after
/// the other, never interleaved), a deletion removes only what its writer saw, and every replica that
/// applied the same operations shows the same text, whatever order they arrived in.
///
/// ```swift
/// var phone = CollaborativeText()
/// var laptop = CollaborativeText()
/// let hello = try phone.insert("Hello", at: 0, by: "phone")
/// try laptop.apply(hello)
/// let world = try phone.insert(" world", at: 5, by: "phone")    // "Hello world" on the phone
/// let there = try laptop.insert(" there", at: 5, by: "laptop")  // "Hello there" on the laptop, meanwhile
/// try phone.apply(there)
/// try laptop.apply(world)
/// phone.text == laptop.text   // both "Hello there world" (or both "Hello world there"), never mixed
/// ```
///
/// The model is a FugueMax tree (Weidner, Gentle and Kleppmann, "The Art of the Fugue", 2023): each
/// character hangs on the left or right of a character its writer saw, and the text is the tree read in
/// order. Right children of one parent are ordered by the character that followed the parent when
/// they were typed (later first), then by id; left children by id. That order is what makes runs typed
/// at the same place, forwards, backwards or in any mix, come out whole.
///
/// **Characters are Unicode scalars.** A string's scalars are the scalars of its parts, however it is
/// cut: joining or splitting text never changes the scalars on either side, so a character's id stays
/// valid for ever. Grapheme clusters are not stable that way (an accent typed after an "e" merges with
/// it into one cluster, an emoji modifier with the emoji before it), so two replicas could disagree on
/// where one cluster ends. Scalars are never cut inside their UTF-8 bytes, so the text is always valid
/// UTF-8; a concurrent edit can separate a combining mark from its base, as in any editor that merges.
///
/// **Delivery.** Operations are applied in each writer's own order and after the characters they name;
/// one that arrives early waits inside the text (see ``waitingCount``) until what it needs arrives.
/// Nothing needs causal delivery from the transport: any order and any number of repeats converge.
///
/// **Deleted characters** stay as tombstones so that concurrent operations can still name them, until
/// ``compact(stableThrough:)`` drops those no operation can name any more.
public struct CollaborativeText: Sendable {
    /// One character (or the root, at index 0).
    struct Node: Sendable {
        /// Index into ``replicas``; -1 for the root.
        var replica: Int32
        var counter: Int
        /// The character; a placeholder once deleted (a tombstone keeps no text).
        var scalar: Unicode.Scalar
        /// Index of the parent node; -1 for the root.
        var parent: Int32
        var side: TextSide
        /// For a right child, the node that followed its parent when it was typed; -1 for the end of
        /// the text (and for left children, which do not use it).
        var rightOrigin: Int32
        /// The least deletion of the character (replica index, counter); -1 while it is visible.
        var deleter: Int32 = -1
        var deletionCounter: Int = 0

        var isDeleted: Bool { deleter >= 0 }
    }

    /// The characters in visible order, and each node's place in the full order (tombstones
    /// included). Recomputed by a walk of the tree after a remote change when a local edit needs it; a
    /// local edit keeps the visible order up to date itself (its run lands exactly where it was typed,
    /// its deletion removes exactly the range), so typing is not a walk of the whole text per key.
    /// The full positions are computed only when a local insert needs them (after deleted text).
    struct Order: Sendable {
        var visible: [Int32]
        var position: [Int32]?
    }

    static let root: Int32 = 0
    static let end: Int32 = -1
    /// The placeholder a tombstone keeps instead of its character.
    static let tombstone: Unicode.Scalar = "\u{FFFD}"
    /// The largest counter an operation may use: far beyond any real text, and safe from overflow when
    /// a run's length is added, or a reference folds a replica index into it (see the record format).
    static let maximumCounter = 1 << 40

    var nodes: [Node] = [Node(replica: -1, counter: 0, scalar: tombstone, parent: -1, side: .right, rightOrigin: end)]
    var leftChildren: [[Int32]] = [[]]
    var rightChildren: [[Int32]] = [[]]
    /// The replica ids met so far, in the order they were met.
    var replicas: [String] = []
    var replicaIndex: [String: Int32] = [:]
    /// Per replica index, counter → node index.
    var lookup: [[Int: Int32]] = []
    /// Per replica index, the first counter not yet applied.
    var applied: [Int] = []
    /// Per replica index, the counters below which tombstones may have been compacted away.
    var compacted: [Int] = []
    /// Operations waiting for what they depend on.
    var pending: [TextOperation] = []
    var order: Order?

    /// An empty text.
    public init() {}

    /// A text holding `initial`, as if `replica` had typed it.
    ///
    /// ```swift
    /// let (note, typed) = try CollaborativeText.starting(with: "Groceries", by: "phone")
    /// ```
    public static func starting(with initial: String, by replica: String) throws -> (CollaborativeText, TextOperation?) {
        var text = CollaborativeText()
        if initial.isEmpty { return (text, nil) }
        let operation = try text.insert(initial, at: 0, by: replica)
        return (text, operation)
    }

    // MARK: Reading

    /// The visible text.
    public var text: String {
        var view = String.UnicodeScalarView()
        for node in documentOrder() where !nodes[Int(node)].isDeleted { view.append(nodes[Int(node)].scalar) }
        return String(view)
    }

    /// How many Unicode scalars the visible text has.
    public var count: Int { nodes.count - 1 - tombstoneCount }

    /// What this replica has applied, per writer.
    public var version: TextVersion {
        var counters: [String: Int] = [:]
        for (index, replica) in replicas.enumerated() { counters[replica] = applied[index] }
        return TextVersion(counters)
    }

    /// How many operations wait for an operation they depend on.
    public var waitingCount: Int { pending.count }

    /// How many deleted characters the text still keeps as tombstones.
    public var tombstoneCount: Int { nodes.lazy.filter(\.isDeleted).count }

    /// The ids of the visible characters, in order.
    package var visibleElementIDs: [TextElementID] {
        documentOrder().filter { !nodes[Int($0)].isDeleted }.map(id(of:))
    }

    // MARK: Local edits

    /// Inserts `string` before the visible scalar at `offset` (`count` for the end), as `replica`;
    /// returns the operation to send to the other replicas.
    ///
    /// - Throws: ``/BoutiqueDB/BoutiqueError/invalidArgument(_:)`` for an empty string, an offset
    ///   outside the text, a replica whose own earlier operations have not all been applied here, or a
    ///   text that would pass 4,194,304 characters, tombstones included (the most a record is read
    ///   back with).
    public mutating func insert(_ string: String, at offset: Int, by replica: String) throws -> TextOperation {
        let scalars = Array(string.unicodeScalars)
        guard !scalars.isEmpty else { throw BoutiqueError.invalidArgument("inserting empty text") }
        let (left, next) = try neighbours(of: offset)
        let counter = try nextCounter(of: replica, taking: scalars.count)
        let anchor = anchorBetween(left, next)
        let insertion = TextInsertion(
            id: TextElementID(replica: replica, counter: counter), scalars: scalars,
            parent: anchor.parent == Self.root ? nil : id(of: anchor.parent), side: anchor.side,
            rightOrigin: anchor.rightOrigin == Self.end ? nil : id(of: anchor.rightOrigin))
        let operation = TextOperation.insert(insertion)
        var kept = order
        order = nil  // `kept` alone holds the arrays: changed in place, not copied
        let first = Int32(nodes.count)
        do {
            _ = try integrate(operation)
        } catch {
            order = kept
            throw error
        }
        // The run is one chain of right children, shown at `offset`: where it was typed.
        kept?.visible.insert(contentsOf: first..<(first + Int32(scalars.count)), at: offset)
        kept?.position = nil
        order = kept
        return operation
    }

    /// Deletes the visible scalars in `range`, as `replica`; returns the operation to send, or `nil`
    /// for an empty range.
    ///
    /// - Throws: ``/BoutiqueDB/BoutiqueError/invalidArgument(_:)`` for a range outside the text, or a
    ///   replica whose own earlier operations have not all been applied here.
    @discardableResult
    public mutating func delete(_ range: Range<Int>, by replica: String) throws -> TextOperation? {
        var kept = refreshedOrder()
        guard range.lowerBound >= 0, range.upperBound <= kept.visible.count else {
            throw BoutiqueError.invalidArgument("deleting \(range) in a text of \(kept.visible.count) characters")
        }
        if range.isEmpty { return nil }
        let counter = try nextCounter(of: replica, taking: 1)
        var ranges: [TextElementRange] = []
        for node in kept.visible[range] {
            let element = id(of: node)
            if let last = ranges.last, last.start.replica == element.replica, last.start.counter + last.count == element.counter {
                ranges[ranges.count - 1].count += 1
            } else {
                ranges.append(TextElementRange(start: element, count: 1))
            }
        }
        let operation = TextOperation.delete(TextDeletion(id: TextElementID(replica: replica, counter: counter), ranges: ranges))
        order = nil  // `kept` alone holds the arrays: changed in place, not copied
        do {
            _ = try integrate(operation)
        } catch {
            order = kept
            throw error
        }
        // The characters stay in the full order as tombstones: only the visible order changes.
        kept.visible.removeSubrange(range)
        order = kept
        return operation
    }

    // MARK: Remote operations

    /// Applies an operation another replica made (or this one, again): a repeat changes nothing, and
    /// one that depends on operations not applied yet waits until they are.
    ///
    /// ```swift
    /// for operation in received { try text.apply(operation) }   // any order, repeats allowed
    /// ```
    ///
    /// - Throws: ``/BoutiqueDB/BoutiqueError/invalidArgument(_:)`` for a malformed operation, or one
    ///   anchored to a character this replica compacted away (which ``compact(stableThrough:)``'s
    ///   contract rules out); the text is then unchanged.
    public mutating func apply(_ operation: TextOperation) throws {
        try Self.validate(operation)
        switch try integrate(operation) {
        case .duplicate: return
        case .waiting:
            if !pending.contains(operation) { pending.append(operation) }
        case .applied:
            applyWaiting()
        }
    }

    /// Applies operations in order (see ``apply(_:)-(TextOperation)``).
    public mutating func apply(_ operations: some Sequence<TextOperation>) throws {
        for operation in operations { try apply(operation) }
    }

    enum Outcome { case applied, duplicate, waiting }

    /// Applies waiting operations until none of them can be.
    mutating func applyWaiting() {
        var progressed = true
        while progressed, !pending.isEmpty {
            progressed = false
            var still: [TextOperation] = []
            for operation in pending {
                // An operation anchored to a compacted character can never apply; it stays listed.
                switch (try? integrate(operation)) ?? .waiting {
                case .waiting: still.append(operation)
                case .applied, .duplicate: progressed = true
                }
            }
            pending = still
        }
    }

    /// Checks what an operation says about itself, before anything is changed.
    static func validate(_ operation: TextOperation) throws(BoutiqueError) {
        func check(_ id: TextElementID?, _ what: String) throws(BoutiqueError) {
            guard let id else { return }
            guard id.counter >= 0, id.counter <= maximumCounter else {
                throw .invalidArgument("text operation with \(what) counter \(id.counter)")
            }
        }
        switch operation {
        case .insert(let insertion):
            try check(insertion.id, "id")
            try check(insertion.parent, "parent")
            try check(insertion.rightOrigin, "right origin")
            guard !insertion.scalars.isEmpty, insertion.scalars.count <= maximumCounter else {
                throw .invalidArgument("text insertion of \(insertion.scalars.count) characters")
            }
            guard insertion.parent != nil || insertion.side == .right else {
                throw .invalidArgument("text insertion on the left of the start of the text")
            }
            guard insertion.side == .right || insertion.rightOrigin == nil else {
                throw .invalidArgument("text insertion on the left with a right origin")
            }
        case .delete(let deletion):
            try check(deletion.id, "id")
            guard !deletion.ranges.isEmpty else { throw .invalidArgument("text deletion of nothing") }
            for range in deletion.ranges {
                try check(range.start, "deleted")
                guard range.count > 0, range.count <= maximumCounter else {
                    throw .invalidArgument("text deletion of \(range.count) characters")
                }
            }
        }
    }

    /// Applies one operation if what it needs is here; changes nothing otherwise.
    mutating func integrate(_ operation: TextOperation) throws(BoutiqueError) -> Outcome {
        let id = operation.id
        let next = replicaIndex[id.replica].map { applied[Int($0)] } ?? 0
        if id.counter < next { return .duplicate }
        if id.counter > next { return .waiting }
        switch operation {
        case .insert(let insertion):
            guard let parent = try resolve(insertion.parent, orElse: Self.root),
                  let rightOrigin = try resolve(insertion.rightOrigin, orElse: Self.end) else { return .waiting }
            // The bound a record is read back under holds for every state, so every state reads back.
            guard nodes.count + insertion.scalars.count <= Self.maximumNodes + 1 else {
                throw .invalidArgument("a collaborative text of more than \(Self.maximumNodes) characters, tombstones included")
            }
            let writer = replicaNumber(id.replica)
            var above = parent
            for (offset, scalar) in insertion.scalars.enumerated() {
                let first = offset == 0
                let side = first ? insertion.side : .right
                // The characters after the first follow it; what followed them when typed is what
                // followed the first (or the first's parent, for a run on the left).
                let origin = insertion.side == .right ? rightOrigin : parent
                let node = Int32(nodes.count)
                nodes.append(Node(replica: writer, counter: id.counter + offset, scalar: scalar, parent: above,
                                  side: side, rightOrigin: side == .right ? (first ? rightOrigin : origin) : Self.end))
                leftChildren.append([])
                rightChildren.append([])
                lookup[Int(writer)][id.counter + offset] = node
                if first { attach(node) } else { rightChildren[Int(above)].append(node) }
                above = node
            }
            applied[Int(writer)] = id.counter + insertion.scalars.count
        case .delete(let deletion):
            var targets: [Int32] = []
            for range in deletion.ranges {
                let seen = replicaIndex[range.start.replica].map { applied[Int($0)] } ?? 0
                if range.start.counter + range.count > seen { return .waiting }
                // A counter with no character is a compacted tombstone or a deletion's own counter:
                // nothing to delete. The cost is bounded by the characters held, not by the range a
                // peer names (up to 2^40 counters).
                guard let index = replicaIndex[range.start.replica] else { continue }
                let characters = lookup[Int(index)]
                let counters = range.start.counter..<(range.start.counter + range.count)
                if counters.count <= characters.count {
                    for counter in counters { if let node = characters[counter] { targets.append(node) } }
                } else {
                    for (counter, node) in characters where counters.contains(counter) { targets.append(node) }
                }
            }
            let writer = replicaNumber(id.replica)
            for target in targets {
                var node = nodes[Int(target)]
                if node.isDeleted, !Self.precedes(writer, id.counter, node.deleter, node.deletionCounter, replicas) { continue }
                node.deleter = writer
                node.deletionCounter = id.counter
                node.scalar = Self.tombstone
                nodes[Int(target)] = node
            }
            applied[Int(writer)] = id.counter + 1
        }
        order = nil
        return .applied
    }

    /// Whether deletion (a, counter) is ordered before deletion (b, bCounter): a tombstone remembers its
    /// least deletion, so replicas that saw its deletions in different orders agree.
    static func precedes(_ a: Int32, _ aCounter: Int, _ b: Int32, _ bCounter: Int, _ replicas: [String]) -> Bool {
        TextElementID(replica: replicas[Int(a)], counter: aCounter) < TextElementID(replica: replicas[Int(b)], counter: bCounter)
    }

    /// The node `id` names, `fallback` for `nil`, or `nil` when it has not arrived yet.
    private func resolve(_ id: TextElementID?, orElse fallback: Int32) throws(BoutiqueError) -> Int32? {
        guard let id else { return fallback }
        if let node = node(for: id) { return node }
        if let index = replicaIndex[id.replica], id.counter < compacted[Int(index)] {
            throw .invalidArgument("text operation anchored to \(id), which was compacted away here")
        }
        return nil
    }

    /// Hangs a new first-of-run node among its parent's children, in FugueMax order.
    mutating func attach(_ node: Int32) {
        let new = nodes[Int(node)]
        let parent = Int(new.parent)
        if new.side == .left {
            let newID = id(of: node)
            let at = leftChildren[parent].firstIndex { newID < id(of: $0) } ?? leftChildren[parent].count
            leftChildren[parent].insert(node, at: at)
        } else {
            let at = rightChildren[parent].firstIndex { sibling in rightSiblingPrecedes(node, sibling) } ?? rightChildren[parent].count
            rightChildren[parent].insert(node, at: at)
        }
    }

    /// Whether right sibling `a` comes before `b`: the one whose right origin is later in the text first
    /// (the end of the text is latest), then by id.
    func rightSiblingPrecedes(_ a: Int32, _ b: Int32) -> Bool {
        let aOrigin = nodes[Int(a)].rightOrigin
        let bOrigin = nodes[Int(b)].rightOrigin
        if aOrigin == bOrigin { return id(of: a) < id(of: b) }
        if aOrigin == Self.end { return true }
        if bOrigin == Self.end { return false }
        return isBefore(bOrigin, aOrigin)
    }

    /// Whether node `a` comes before node `b` in the full order (tombstones included), by walking up
    /// to where their paths to the root meet.
    func isBefore(_ a: Int32, _ b: Int32) -> Bool {
        if a == b { return false }
        var x = a, y = b
        var depthX = depth(a), depthY = depth(b)
        var sideX = TextSide.right, sideY = TextSide.right
        while depthX > depthY { sideX = nodes[Int(x)].side; x = nodes[Int(x)].parent; depthX -= 1 }
        if x == b { return sideX == .left }
        while depthY > depthX { sideY = nodes[Int(y)].side; y = nodes[Int(y)].parent; depthY -= 1 }
        if y == a { return sideY == .right }
        while nodes[Int(x)].parent != nodes[Int(y)].parent { x = nodes[Int(x)].parent; y = nodes[Int(y)].parent }
        let sx = nodes[Int(x)].side, sy = nodes[Int(y)].side
        if sx != sy { return sx == .left }
        let siblings = sx == .left ? leftChildren[Int(nodes[Int(x)].parent)] : rightChildren[Int(nodes[Int(x)].parent)]
        for sibling in siblings {
            if sibling == x { return true }
            if sibling == y { return false }
        }
        return false
    }

    private func depth(_ node: Int32) -> Int {
        var depth = 0
        var current = node
        while current != Self.root { current = nodes[Int(current)].parent; depth += 1 }
        return depth
    }

    // MARK: Where a local insert hangs

    /// The visible node before `offset` (the root at 0) and the one at it (nil at the end).
    private mutating func neighbours(of offset: Int) throws(BoutiqueError) -> (left: Int32, next: Int32?) {
        let visible = refreshedOrder().visible
        guard offset >= 0, offset <= visible.count else {
            throw .invalidArgument("insert at \(offset) in a text of \(visible.count) characters")
        }
        return (offset == 0 ? Self.root : visible[offset - 1], offset < visible.count ? visible[offset] : nil)
    }

    /// The parent, side and right origin of a run typed between visible node `left` (or the root) and
    /// the next visible node `next` (nil at the end).
    ///
    /// This is Fugue's rule, read with subtrees that hold only tombstones left out: a run never hangs
    /// on such a subtree, so compaction may drop it without stranding operations made after it.
    private mutating func anchorBetween(_ left: Int32, _ next: Int32?) -> (parent: Int32, side: TextSide, rightOrigin: Int32) {
        guard let next else { return (left, .right, Self.end) }
        // The path from `next` up to `left`, if `next` is in `left`'s (right) subtree.
        var path: [Int32] = []
        var current = next
        while current != Self.end, current != left {
            path.append(current)
            current = nodes[Int(current)].parent
        }
        if current == left {
            // `left` has characters after it in its own subtree: the run goes on the left of the first
            // node on the way down to `next` from which the way turns right (or of `next` itself).
            path.reverse()
            for step in 0..<(path.count - 1) where nodes[Int(path[step + 1])].side == .right {
                return (path[step], .left, Self.end)
            }
            return (next, .left, Self.end)
        }
        // Only tombstones follow `left` in its subtree: the run hangs on its right, and what follows it
        // is the first node after `left` whose subtree holds a visible character: the earliest ancestor
        // (or `next` itself) placed after `left`.
        let positions = fullPositions()
        let leftPosition = left == Self.root ? -1 : positions[Int(left)]
        var origin = next
        var ancestor = nodes[Int(next)].parent
        while ancestor != Self.root {
            let position = positions[Int(ancestor)]
            if position > leftPosition, position < positions[Int(origin)] { origin = ancestor }
            ancestor = nodes[Int(ancestor)].parent
        }
        return (left, .right, origin)
    }

    // MARK: Helpers

    func id(of node: Int32) -> TextElementID {
        let entry = nodes[Int(node)]
        return TextElementID(replica: replicas[Int(entry.replica)], counter: entry.counter)
    }

    func node(for id: TextElementID) -> Int32? {
        guard let index = replicaIndex[id.replica] else { return nil }
        return lookup[Int(index)][id.counter]
    }

    /// The index of `replica`, adding it when new.
    mutating func replicaNumber(_ replica: String) -> Int32 {
        if let index = replicaIndex[replica] { return index }
        let index = Int32(replicas.count)
        replicas.append(replica)
        replicaIndex[replica] = index
        lookup.append([:])
        applied.append(0)
        compacted.append(0)
        return index
    }

    /// The counter `replica`'s next local operation takes.
    private func nextCounter(of replica: String, taking count: Int) throws(BoutiqueError) -> Int {
        let counter = replicaIndex[replica].map { applied[Int($0)] } ?? 0
        guard !pending.contains(where: { $0.id.replica == replica }) else {
            throw .invalidArgument("replica \(replica) edits a text before its own earlier operations arrived")
        }
        guard counter + count <= Self.maximumCounter else { throw .invalidArgument("text counter overflow") }
        return counter
    }

    /// The nodes in full order (tombstones included, the root left out).
    func documentOrder() -> [Int32] {
        var result: [Int32] = []
        result.reserveCapacity(nodes.count - 1)
        // Each frame is a node and how far its visit has gone: its left children, itself, its right children.
        var stack: [(node: Int32, stage: Int)] = [(Self.root, 0)]
        while let top = stack.last {
            let node = Int(top.node)
            let lefts = leftChildren[node].count
            stack[stack.count - 1].stage += 1
            if top.stage < lefts {
                stack.append((leftChildren[node][top.stage], 0))
            } else if top.stage == lefts {
                if top.node != Self.root { result.append(top.node) }
            } else if top.stage - lefts - 1 < rightChildren[node].count {
                stack.append((rightChildren[node][top.stage - lefts - 1], 0))
            } else {
                stack.removeLast()
            }
        }
        return result
    }

    /// Each node's place in the full order (tombstones included), computed when the kept order lacks it.
    private mutating func fullPositions() -> [Int32] {
        if let positions = order?.position { return positions }
        var positions = [Int32](repeating: -1, count: nodes.count)
        for (index, node) in documentOrder().enumerated() { positions[Int(node)] = Int32(index) }
        if order != nil { order?.position = positions }
        return positions
    }

    /// The visible order (and full positions, when walked again), recomputed if a remote change made
    /// the kept one stale.
    mutating func refreshedOrder() -> Order {
        if let order { return order }
        let full = documentOrder()
        var position = [Int32](repeating: -1, count: nodes.count)
        var visible: [Int32] = []
        visible.reserveCapacity(full.count)
        for (index, node) in full.enumerated() {
            position[Int(node)] = Int32(index)
            if !nodes[Int(node)].isDeleted { visible.append(node) }
        }
        let fresh = Order(visible: visible, position: position)
        order = fresh
        return fresh
    }
}
