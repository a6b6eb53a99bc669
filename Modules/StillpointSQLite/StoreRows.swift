import GRDB
import GRDBSQLite
import StillpointCore
import StillpointSQL

/// The SQL that reads and writes the rows of entities.
enum StoreRows {
    /// `"_id", "_version", "a", "b"`: the columns every object read selects, in attribute order.
    static func objectColumns(of entity: EntityDescription) -> String {
        SQLDialect.sqlite.objectColumns(of: entity)
    }

    /// Reads the attribute values of the current row of `SELECT _id, _version, attributes...`.
    ///
    /// - Throws: ``StoredValueError`` for a value its attribute cannot hold (another program wrote it).
    static func values(of entity: EntityDescription, from statement: OpaquePointer) throws -> ContiguousArray<AttributeValue> {
        var values = ContiguousArray<AttributeValue>()
        values.reserveCapacity(entity.storedAttributes.count)
        var column: Int32 = 2
        for attribute in entity.storedAttributes {
            let value = AttributeValue(column: column, of: statement, as: attribute.type)
            // Text or bytes where a number belongs (read as what they are): the typed accessors can't read them.
            if !value.isNull, !value.fits(attribute.type) {
                throw StoredValueError(entity: entity.name, attribute: attribute, rowID: sqlite3_column_int64(statement, 0), value: value)
            }
            values.append(value)
            column += 1
        }
        try entity.checkStoredValues(values, rowID: sqlite3_column_int64(statement, 0))
        return values
    }

    /// The values and version of one row, or `nil` when it does not exist.
    static func row(id: Int64, entity: EntityDescription, in db: Database) throws -> (ContiguousArray<AttributeValue>, Int64)? {
        var result: (ContiguousArray<AttributeValue>, Int64)?
        try db.query("SELECT \(objectColumns(of: entity)) FROM \(Store.quote(entity.name)) WHERE \"_id\" = ?", [.integer(id)]) { statement in
            result = try (values(of: entity, from: statement), sqlite3_column_int64(statement, 1))
        }
        return result
    }
}
