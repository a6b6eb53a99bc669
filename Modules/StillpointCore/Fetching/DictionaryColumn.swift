/// One column of a dictionary fetch: its key in the result, the attribute or aggregate it computes, and the
/// type of its values (`nil` when it has none to read them as).
///
/// ```swift
/// let columns = try DictionaryColumn.columns(of: request)   // [("kind", .attribute("kind"), .string), ...]
/// ```
package struct DictionaryColumn: Sendable {
    let key: String
    let property: FetchProperty
    package let type: AttributeType?

    /// The columns `request` selects: its properties, or every attribute when it names none. Throws for an
    /// attribute the entity does not have.
    package static func columns(of request: FetchRequest) throws -> [DictionaryColumn] {
        let entity = request.entity
        let properties = request.properties.isEmpty ? entity.storedAttributes.map { FetchProperty.attribute($0.name) } : request.properties
        var columns: [DictionaryColumn] = []
        for property in properties {
            switch property {
            case .attribute(let name):
                columns.append(DictionaryColumn(key: name, property: property, type: try Self.type(of: name, in: entity)))
            case .aggregate(let function, let name, let alias):
                let type = try Self.type(of: name, in: entity)
                columns.append(DictionaryColumn(key: alias, property: property, type: type.flatMap(function.resultType(for:))))
            case .count(let alias):
                columns.append(DictionaryColumn(key: alias, property: property, type: .integer))
            case .expression(let expression, let alias):
                columns.append(DictionaryColumn(key: alias, property: property, type: try expression.sql(in: .typeChecking, of: entity).type))
            }
        }
        return columns
    }

    /// The type of an attribute, or of a key path through relationships (`importRun.file`).
    static func type(of name: String, in entity: EntityDescription) throws -> AttributeType? {
        guard name.contains(".") else { return try entity.attribute(position: name).type }
        return try PredicateSQLCompiler.keyPath(name, of: entity, in: .typeChecking).type
    }
}
