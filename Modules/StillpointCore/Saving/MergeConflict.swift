/// A conflict found while saving one object: its row changed (or vanished) since the context read it, or its
/// unique key is already taken.
public struct MergeConflict: Sendable, Hashable, CustomStringConvertible {
    public let objectID: ObjectID
    /// The version the context read, and the store's current version (`nil` when the row was deleted).
    public let readVersion: Int64
    public let storeVersion: Int64?
    /// Per attribute: what the context read, what it holds now, and what the store holds.
    public let attributes: [AttributeConflict]

    public var description: String {
        let where_ = storeVersion.map { "version \(readVersion) was read, the store is at \($0)" } ?? "the row was deleted from the store"
        let details = attributes.map(\.description).joined(separator: ", ")
        return "\(objectID): \(where_)" + (details.isEmpty ? "" : ": \(details)")
    }
}

/// One attribute of a ``MergeConflict``.
public struct AttributeConflict: Sendable, Hashable, CustomStringConvertible {
    public let name: String
    public let readValue: AttributeValue
    public let objectValue: AttributeValue
    public let storeValue: AttributeValue?

    public var description: String {
        "\(name): read \(readValue), object \(objectValue), store \(storeValue.map(\.description) ?? "deleted")"
    }
}
