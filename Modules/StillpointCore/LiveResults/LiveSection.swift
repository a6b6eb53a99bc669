/// One section of a ``LiveSnapshot``: the rows that share a value of the section key, one run of the
/// snapshot's rows.
///
/// ```swift
/// for section in snapshot.sections {
///     print(section.name, section.count)
///     for row in snapshot.rows(in: section) { print(row.objectID) }
/// }
/// ```
public struct LiveSection: Sendable, Hashable {
    /// The section key's value, as text: a string as it is, `""` for `null`, other values as they print.
    public let name: String
    /// The section key's value; `.null` for the one section of unsectioned results.
    public let value: AttributeValue
    /// Where the section's rows start in ``LiveSnapshot/rows``.
    public let start: Int
    /// How many rows the section has.
    public let count: Int

    package init(value: AttributeValue, start: Int, count: Int) {
        self.value = value
        self.start = start
        self.count = count
        switch value {
        case .null: name = ""
        case .string(let text): name = text
        default: name = value.description
        }
    }

    /// The positions of the section's rows in ``LiveSnapshot/rows``.
    public var range: Range<Int> { start..<(start + count) }
}
