/// One record for an ``ImportOperation``: attribute values by name, and where it came from.
///
/// ```swift
/// ImportRecord(["key": .string("csv|1554901834|1554903334"), "duration": .double(1500)], position: 17)
/// ```
public struct ImportRecord: Sendable, Hashable {
    /// The values to store, by attribute name. Attributes left out keep their value (on update) or their
    /// default (on insert).
    public var values: [String: AttributeValue]
    /// Where the record is in its source (a line or row number), for error messages.
    public var position: Int?

    public init(_ values: [String: AttributeValue], position: Int? = nil) {
        self.values = values
        self.position = position
    }
}
