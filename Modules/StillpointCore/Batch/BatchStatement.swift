import Foundation

/// A batch operation, run by the store as one statement without loading objects and recorded in the change
/// log (``StoreWriter/run(_:author:origin:policy:hub:)``).
package enum BatchStatement: Sendable {
    case delete(FetchRequest)
    case update(FetchRequest, values: [String: AttributeValue])
    case insert(EntityDescription, rows: [[String: AttributeValue]])

    package var entity: EntityDescription {
        switch self {
        case .delete(let request), .update(let request, _): return request.entity
        case .insert(let entity, _): return entity
        }
    }

    /// Checks names, types, integer ranges and required values before anything is written.
    package func validate() throws {
        switch self {
        case .delete:
            return
        case .update(_, let values):
            for (name, value) in values { try Self.check(value, for: name, in: entity) }
        case .insert(let entity, let rows):
            for row in rows {
                for (name, value) in row { try Self.check(value, for: name, in: entity) }
                for attribute in entity.storedAttributes where !attribute.isOptional && (row[attribute.name] ?? attribute.initialValue).isNull {
                    throw SaveError.validation([ValidationFailure(objectID: .temporary(entityName: entity.name),
                                                                  reason: .missingValue(attribute: attribute.name))])
                }
            }
        }
    }

    private static func check(_ value: AttributeValue, for name: String, in entity: EntityDescription) throws {
        let attribute = try entity.attribute(position: name)
        guard value.isNull ? attribute.isOptional : value.fits(attribute.type) else {
            throw SchemaError.invalidDeclaration("\(entity.name).\(name) is \(attribute.isOptional ? "an optional " : "")\(attribute.type.rawValue); \(value) does not fit")
        }
        guard attribute.isInRange(value) else {
            throw SaveError.validation([ValidationFailure(objectID: .temporary(entityName: entity.name),
                                                          reason: .outOfRange(attribute: name, value: value, range: attribute.integerRange))])
        }
    }
}
