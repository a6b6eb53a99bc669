import GRDB
import GRDBSQLite

/// The SQL that reads and writes the rows of entities.
enum StoreRows {
    /// `"_id", "_version", "a", "b"`: the columns every object read selects, in attribute order.
    static func objectColumns(of entity: EntityDescription) -> String {
        (["\"_id\"", "\"_version\""] + entity.attributes.map { Store.quote($0.name) }).joined(separator: ", ")
    }

    /// Reads the attribute values of the current row, starting at column `first`.
    static func values(of entity: EntityDescription, from statement: OpaquePointer, first: Int32 = 2) -> ContiguousArray<AttributeValue> {
        var values = ContiguousArray<AttributeValue>()
        values.reserveCapacity(entity.attributes.count)
        for (offset, attribute) in entity.attributes.enumerated() {
            values.append(AttributeValue(column: first + Int32(offset), of: statement, as: attribute.type))
        }
        return values
    }

    /// The values and version of one row, or `nil` when it does not exist.
    static func row(id: Int64, entity: EntityDescription, in db: Database) throws -> (ContiguousArray<AttributeValue>, Int64)? {
        var result: (ContiguousArray<AttributeValue>, Int64)?
        try db.query("SELECT \(objectColumns(of: entity)) FROM \(Store.quote(entity.name)) WHERE \"_id\" = ?", [.integer(id)]) { statement in
            result = (values(of: entity, from: statement), sqlite3_column_int64(statement, 1))
        }
        return result
    }

    /// The id, values and version of the row whose unique key `values` (in attribute order) would repeat, or `nil`.
    static func row(clashingWith values: ContiguousArray<AttributeValue>, entity: EntityDescription,
                    in db: Database) throws -> (id: Int64, values: ContiguousArray<AttributeValue>, version: Int64)? {
        for constraint in entity.uniquenessConstraints {
            let condition = constraint.map { "\(Store.quote($0)) IS ?" }.joined(separator: " AND ")
            var found: (Int64, ContiguousArray<AttributeValue>, Int64)?
            try db.query("SELECT \(objectColumns(of: entity)) FROM \(Store.quote(entity.name)) WHERE \(condition)",
                         constraint.map { values[entity.attributePositions[$0]!] }) { statement in
                found = (sqlite3_column_int64(statement, 0), Self.values(of: entity, from: statement), sqlite3_column_int64(statement, 1))
            }
            if let found { return found }
        }
        return nil
    }
}
