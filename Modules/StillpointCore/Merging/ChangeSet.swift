import Foundation

/// What one save or batch operation changed in a store: the Sendable form of a did-save notification.
///
/// ```swift
/// for await changes in container.changeSets {
///     print(changes.sequence, changes.inserted.count, changes.updated.count, changes.deleted.count)
/// }
/// ```
public struct ChangeSet: Sendable, Hashable {
    /// The position of the save in the store's history: later saves have larger numbers.
    public let sequence: Int64
    /// Who made the change: a context's name, or an operation's.
    public let author: String
    public let timestamp: Date
    public let inserted: ObjectIDSet
    public let updated: ObjectIDSet
    public let deleted: ObjectIDSet
    /// The names of the changed attributes, by entity.
    public let changedAttributes: [String: Set<String>]
    /// The context that made the change, so that it does not merge its own saves; 0 when unknown.
    package var originContext: UInt64 = 0

    public init(sequence: Int64, author: String, timestamp: Date, inserted: ObjectIDSet, updated: ObjectIDSet,
                deleted: ObjectIDSet, changedAttributes: [String: Set<String>]) {
        self.sequence = sequence
        self.author = author
        self.timestamp = timestamp
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
        self.changedAttributes = changedAttributes
    }

    /// Whether nothing changed.
    public var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty }

    /// The entities that have a change.
    public var entityNames: Set<String> {
        inserted.entityNames.union(updated.entityNames).union(deleted.entityNames)
    }
}
