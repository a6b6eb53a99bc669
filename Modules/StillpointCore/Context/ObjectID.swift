import Foundation
import Synchronization

/// The identity of an object, the same in every context: the one way an object crosses contexts.
///
/// An object inserted and not yet saved has a temporary ID; saving it to the store gives it a permanent one.
///
/// ```swift
/// let id = try await background.perform { context in
///     let item = context.insert(Item.self)
///     try await context.save()
///     return item.objectID          // Sendable: may leave the context
/// }
/// try await container.viewContext.perform { context in
///     let item = try context.existingObject(with: id)
/// }
/// ```
public struct ObjectID: Sendable, Hashable, CustomStringConvertible {
    /// The entity the object belongs to.
    public let entityName: String
    let storage: Storage

    enum Storage: Sendable, Hashable {
        case permanent(Int64)
        case temporary(UInt64)
    }

    package init(entityName: String, rowID: Int64) {
        self.entityName = entityName
        self.storage = .permanent(rowID)
    }

    /// The permanent ID of the stored row `rowID` of `entity`, as a reference kept elsewhere holds it (a number
    /// in another row, an argument). ``ObjectContext/existingObject(with:)`` fails when there is no such row.
    ///
    /// ```swift
    /// let run = try context.existingObject(with: ObjectID(entity: ImportRun.entity, rowID: 3))
    /// ```
    public init(entity: EntityDescription, rowID: Int64) {
        self.init(entityName: entity.name, rowID: rowID)
    }

    package static func temporary(entityName: String) -> ObjectID {
        ObjectID(entityName: entityName, storage: .temporary(TemporaryIDCounter.next()))
    }

    /// The temporary ID numbered `number`, as a reference to an unsaved object holds it.
    package static func temporary(entityName: String, number: UInt64) -> ObjectID {
        ObjectID(entityName: entityName, storage: .temporary(number))
    }

    /// The number of a temporary ID.
    package var temporaryNumber: UInt64? {
        if case .temporary(let number) = storage { return number }
        return nil
    }

    private init(entityName: String, storage: Storage) {
        self.entityName = entityName
        self.storage = storage
    }

    /// Hashes the number alone: IDs of different entities rarely share a set, and hashing the entity name
    /// too would double the cost of every look-up by ID.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(storage)
    }

    /// Whether the object has not been saved to the store yet.
    public var isTemporary: Bool {
        if case .temporary = storage { return true }
        return false
    }

    /// The row id in the store, for a saved object.
    public var rowID: Int64? {
        if case .permanent(let rowID) = storage { return rowID }
        return nil
    }

    /// A URI for logs and debugging: `stillpoint://Item/p42`, or `.../t7` for a temporary ID.
    public var description: String {
        switch storage {
        case .permanent(let rowID): return "stillpoint://\(entityName)/p\(rowID)"
        case .temporary(let number): return "stillpoint://\(entityName)/t\(number)"
        }
    }
}

/// Hands out temporary ID numbers, unique in the process.
private enum TemporaryIDCounter {
    private static let last = Atomic<UInt64>(0)

    static func next() -> UInt64 {
        last.add(1, ordering: .relaxed).newValue
    }
}
