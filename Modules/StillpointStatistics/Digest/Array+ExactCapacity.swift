extension Array {
    /// The same elements in storage of their own size: an array filled by appending keeps up to twice the room it
    /// needs, which a digest held for each of thousands of practitioners pays for all its life.
    ///
    /// ```swift
    /// durations = durations.withExactCapacity()   // 2,100 values: 16.8 KB, not 32 KB
    /// ```
    func withExactCapacity() -> [Element] {
        guard capacity > count else { return self }
        var exact: [Element] = []
        exact.reserveCapacity(count)
        exact.append(contentsOf: self)
        return exact
    }
}

extension Array {
    /// Makes room for `more` elements beyond ``count``, growing by a sixteenth rather than doubling when it must:
    /// a digest kept exact by ``withExactCapacity()`` would otherwise hold twice its size after its first new row.
    ///
    /// ```swift
    /// rowIDs.reserveGently(read.count)   // 2,100 rows, 3 new: room for 2,231, not 4,200
    /// ```
    mutating func reserveGently(_ more: Int = 1) {
        guard count + more > capacity else { return }
        reserveCapacity(count + Swift.max(more, count / 16, 4))
    }
}
