/// The bytes a pull or snapshot page may still take (``SyncServerLimits/maximumPageBytes``), spent on the
/// sizes a store reports before the page is read, so that a page is never read whole and then trimmed.
///
/// The first item of a page always fits, however large: a page must move forward.
struct PageBudget {
    let maximumBytes: Int
    /// What the page holds so far.
    private(set) var used = 0
    /// Whether an item was left out for want of bytes: the page is full, and more follows.
    private(set) var isSpent = false

    init(maximumBytes: Int) { self.maximumBytes = maximumBytes }

    /// Counts `size` more bytes when they fit, or when `firstItem` (the page holds nothing yet: it must
    /// move forward); `false`, with nothing counted and the page marked full, otherwise.
    mutating func spend(_ size: Int, firstItem: Bool) -> Bool {
        guard firstItem || used + size <= maximumBytes else {
            isSpent = true
            return false
        }
        used += size
        return true
    }

    /// How many of `sizes`, from the first, fit; those are counted as used. `continuing`: the first is
    /// the rest of an item the page already holds part of (a server transaction), which it must finish.
    mutating func take(_ sizes: [Int], continuing: Bool = false) -> Int {
        var count = 0
        for size in sizes {
            guard used == 0 || used + size <= maximumBytes || (continuing && count == 0) else {
                isSpent = true
                break
            }
            used += size
            count += 1
        }
        return count
    }
}
