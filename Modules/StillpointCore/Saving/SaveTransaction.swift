import Foundation

/// One save, as Sendable data: what to write, and the rule for conflicts. It runs in one write transaction on
/// the store's writer, whichever context asked for it (``StoreWriter/save(_:hub:)``).
package struct SaveTransaction: Sendable {
    /// An entity's description, shared by every row of that entity in one save: a row then holds one reference
    /// rather than the description's several, which a large save would retain and release by the thousand.
    package final class EntityRef: Sendable {
        package let entity: EntityDescription

        package init(_ entity: EntityDescription) {
            self.entity = entity
        }
    }

    package struct Insert: Sendable {
        package let id: ObjectID
        package let entityRef: EntityRef
        package let values: ContiguousArray<AttributeValue>

        package init(id: ObjectID, entityRef: EntityRef, values: ContiguousArray<AttributeValue>) {
            self.id = id
            self.entityRef = entityRef
            self.values = values
        }

        package var entity: EntityDescription { entityRef.entity }
    }

    package struct Update: Sendable {
        package let id: ObjectID
        package let entityRef: EntityRef
        package let values: ContiguousArray<AttributeValue>
        /// The values the context read, to tell which attributes changed on either side.
        package let readValues: ContiguousArray<AttributeValue>
        package let version: Int64

        package var entity: EntityDescription { entityRef.entity }
    }

    package struct Delete: Sendable {
        package let id: ObjectID
        package let entityRef: EntityRef
        package let version: Int64
        package let readValues: ContiguousArray<AttributeValue>

        package var entity: EntityDescription { entityRef.entity }
    }

    /// What the store holds for an object after the save.
    package struct Written: Sendable {
        package let values: ContiguousArray<AttributeValue>
        package let version: Int64

        package init(values: ContiguousArray<AttributeValue>, version: Int64) {
            self.values = values
            self.version = version
        }
    }

    /// What one insert became: its permanent ID (the new row's, or the existing row's it merged into) and what
    /// the store holds for it.
    package struct InsertResult: Sendable {
        package let id: ObjectID
        /// What the store holds when an insert merged into an existing row; `nil` for a new row, which holds the
        /// values sent at version 1 (the common case carries no second reference to them).
        package let merged: Written?
        /// The values written for a new row whose references to objects the save inserted became row ids; `nil`
        /// when the row holds the values sent.
        package let resolvedValues: ContiguousArray<AttributeValue>?

        package init(id: ObjectID, merged: Written?, resolvedValues: ContiguousArray<AttributeValue>? = nil) {
            self.id = id
            self.merged = merged
            self.resolvedValues = resolvedValues
        }

        package var version: Int64 { merged?.version ?? 1 }
    }

    /// What happened to an object the save updated or deleted.
    package enum Result: Sendable {
        /// Nothing to bring back to the object.
        case unchanged
        /// The store holds these values for the object after the save.
        case written(Written)
        /// The object's row no longer exists after the save.
        case removed
    }

    /// The results in the order of ``inserts``, ``updates`` and ``deletes``, one per entry: arrays rather than
    /// dictionaries keyed by object ID, so that a large save hashes no ID to record or apply them.
    package struct Outcome: Sendable {
        /// `nil` for an insert that failed validation (the save then throws).
        package var inserts: [InsertResult?] = []
        package var updates: [Result] = []
        package var deletes: [Result] = []
        package var changeSet: ChangeSet?

        package init() {}
    }

    package let author: String
    package let origin: StoreOrigin
    package var inserts: [Insert] = []
    package var updates: [Update] = []
    package var deletes: [Delete] = []
    package let defaultPolicy: MergePolicy
    package let entityPolicies: [String: MergePolicy]

    package var isEmpty: Bool { inserts.isEmpty && updates.isEmpty && deletes.isEmpty }

    /// The merge policy for conflicts on objects of `entity`.
    package func policy(_ entity: EntityDescription) -> MergePolicy { entityPolicies[entity.name] ?? defaultPolicy }

    /// The existing row that holds the unique values an insert tried to take.
    package static func conflict(_ id: ObjectID, _ entity: EntityDescription, read: ContiguousArray<AttributeValue>,
                         object: ContiguousArray<AttributeValue>, readVersion: Int64,
                         stored: (ContiguousArray<AttributeValue>, Int64)?) -> MergeConflict {
        let attributes = entity.storedAttributes.indices.compactMap { position -> AttributeConflict? in
            let storeValue = stored?.0[position]
            guard object[position] != read[position] || storeValue != read[position] else { return nil }
            return AttributeConflict(name: entity.storedAttributes[position].name, readValue: read[position],
                                     objectValue: object[position], storeValue: storeValue)
        }
        return MergeConflict(objectID: id, readVersion: readVersion, storeVersion: stored?.1, attributes: attributes)
    }
}
