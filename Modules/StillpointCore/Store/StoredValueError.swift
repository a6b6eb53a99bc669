import Foundation

/// A row holds a value its attribute cannot hold: written by another program, or by a schema of another type
/// (an integer beyond an `Attribute<Int32>`'s range, text that is not a UUID, a null in a required attribute).
/// Reading the row throws it, naming the row, rather than handing the typed accessors a value they cannot read.
///
/// ```swift
/// do {
///     _ = try context.fetch(FetchRequest(Item.self))
/// } catch let error as StoredValueError {
///     print(error)   // the row with _id 7 of Item holds 5000000000 in 'uid', an integer attribute (-2147483648...2147483647); ...
/// }
/// ```
public struct StoredValueError: Error, Sendable, Hashable, CustomStringConvertible {
    public let entity: String
    public let attribute: String
    /// The row's `_id`.
    public let rowID: Int64
    /// The value as the store handed it back.
    public let value: AttributeValue
    /// What the attribute is (`an integer attribute (-2147483648...2147483647)`).
    public let expected: String

    package init(entity: String, attribute: AttributeDescription, rowID: Int64, value: AttributeValue) {
        self.entity = entity
        self.attribute = attribute.name
        self.rowID = rowID
        self.value = value
        self.expected = attribute.kindDescription
    }

    public var description: String {
        "the row with _id \(rowID) of \(entity) holds \(value) in '\(attribute)', \(expected); correct that row "
            + "(another program wrote it), or declare '\(attribute)' with a type that holds its value"
    }
}

extension StoredValueError: LocalizedError {
    public var errorDescription: String? { description }
}

extension EntityDescription {
    /// Checks the values of the stored row `rowID` (in ``storedAttributes`` order) as a store reads them, before
    /// any object or live row is made of them. Costs nothing for an entity whose every value reads.
    package func checkStoredValues(_ values: ContiguousArray<AttributeValue>, rowID: Int64) throws(StoredValueError) {
        for position in positionsCheckedWhenRead where !storedAttributes[position].canRead(values[position]) {
            throw StoredValueError(entity: name, attribute: storedAttributes[position], rowID: rowID, value: values[position])
        }
    }
}
