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
    /// The object this record's row is linked to through the import's ``ImportOperation/Link``, in place of the
    /// link's own object: each record of a bulk load linked to the import run of its own practitioner, say.
    ///
    /// ```swift
    /// ImportRecord(values, position: 17, link: ObjectID(entity: ImportRun.entity, rowID: aliceRun))
    /// ```
    public var link: ObjectID?

    public init(_ values: [String: AttributeValue], position: Int? = nil, link: ObjectID? = nil) {
        self.values = values
        self.position = position
        self.link = link
    }
}
