/// How the column of a to-one relationship holds its target: the row id of a saved object, or, for an object not
/// saved yet, its temporary ID's number below zero (row ids are positive), which the save turns into the row id.
///
/// Holding the reference as a value of the object keeps relationships in everything values go through: change
/// tracking, saves, conflicts under the merge policies, change sets, merges and child contexts.
package enum RelationshipReference {
    /// The stored value that refers to `id`.
    package static func value(for id: ObjectID) -> AttributeValue {
        if let rowID = id.rowID { return .integer(rowID) }
        guard let number = id.temporaryNumber, let offset = Int64(exactly: number) else { return .null }
        return .integer(Int64.min + offset)
    }

    /// The ID a stored value refers to, in the entity `entityName`; `nil` for null or a value that is no reference.
    package static func objectID(in value: AttributeValue, entityName: String) -> ObjectID? {
        guard case .integer(let number) = value else { return nil }
        if number > 0 { return ObjectID(entityName: entityName, rowID: number) }
        return temporaryNumber(in: value).map { .temporary(entityName: entityName, number: $0) }
    }

    /// The temporary ID number a value refers to, when it refers to an object not saved yet.
    package static func temporaryNumber(in value: AttributeValue) -> UInt64? {
        guard case .integer(let number) = value, number < 0, number != Int64.min else { return nil }
        return UInt64(number - Int64.min)
    }

    /// Whether a value refers to an object not saved yet.
    package static func isTemporary(_ value: AttributeValue) -> Bool {
        temporaryNumber(in: value) != nil
    }
}
