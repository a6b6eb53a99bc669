/// How a save resolves a conflict: a row changed in the store since the context read it, or an inserted
/// object whose unique key is already taken.
///
/// An inserted object whose unique key is taken becomes the existing row: `mergeByPropertyObjectTrump` and
/// `overwrite` write its values there (an upsert), `mergeByPropertyStoreTrump` and `rollback` give it the row's
/// values. It takes the row's ``ObjectID`` either way. When the context already holds an object for that row,
/// that object stays the row's object and shows its new values, and the inserted one, a duplicate, is marked
/// deleted (as in Core Data): `context.existingObject(with: inserted.objectID)` gives the held one.
///
/// ```swift
/// await context.setMergePolicy(.mergeByPropertyObjectTrump)
/// await context.setMergePolicy(.mergeByPropertyStoreTrump, for: Session.entity)
/// ```
public enum MergePolicy: String, Sendable, Hashable, CaseIterable {
    /// The save fails with a ``SaveError/conflicts(_:)`` and changes nothing. The default.
    case error
    /// Attributes changed in the store keep the store's values; the others take the object's.
    case mergeByPropertyStoreTrump
    /// Attributes changed in the object keep the object's values; the others take the store's.
    case mergeByPropertyObjectTrump
    /// The object's values replace the whole row.
    case overwrite
    /// The object's changes are discarded and it shows the store's values.
    case rollback
}
