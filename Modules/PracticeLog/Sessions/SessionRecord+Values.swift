import StillpointCore

extension SessionRecord {
    /// The record as attribute values of a ``Session``, for inserts and imports.
    public var attributeValues: [String: AttributeValue] {
        [
            Session.start.name: .date(start),
            Session.duration.name: .double(duration),
            Session.kind.name: .string(kind),
            Session.source.name: .string(source),
            Session.timeZone.name: timeZone.map(AttributeValue.string) ?? .null,
            Session.note.name: note.map(AttributeValue.string) ?? .null,
            Session.key.name: .string(key),
        ]
    }
}
