/// Where a row sits in a ``LiveSnapshot``: its section and its place in the section.
///
/// ```swift
/// for position in snapshot.difference.inserted {
///     print(snapshot[position].objectID, "now at", position.section, position.item)
/// }
/// ```
public struct LivePosition: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var section: Int
    public var item: Int

    public init(section: Int, item: Int) {
        self.section = section
        self.item = item
    }

    public static func < (lhs: LivePosition, rhs: LivePosition) -> Bool {
        (lhs.section, lhs.item) < (rhs.section, rhs.item)
    }

    public var description: String { "[\(section), \(item)]" }
}
