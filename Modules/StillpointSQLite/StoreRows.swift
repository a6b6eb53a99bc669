import GRDB
import GRDBSQLite
import StillpointCore

/// The SQL that reads and writes the rows of entities.
enum StoreRows {
    /// `"_id", "_version", "a", "b"`: the columns every object read selects, in attribute order.
    static func objectColumns(of entity: EntityDescription) -> String {
        (["\"_id\"", "\"_version\""] + entity.storedAttributes.map { Store.quote($0.name) }).joined(separator: ", ")
    }

    /// Reads the attribute values of the current row, starting at column `first`.
    static func values(of entity: EntityDescription, from statement: OpaquePointer, first: Int32 = 2) -> ContiguousArray<AttributeValue> {
        var values = ContiguousArray<AttributeValue>()
        values.reserveCapacity(entity.storedAttributes.count)
        for (offset, attribute) in entity.storedAttributes.enumerated() {
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
}
