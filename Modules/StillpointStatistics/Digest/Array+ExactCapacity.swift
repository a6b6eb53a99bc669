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
