import Foundation
import GRDB
import GRDBSQLite
import StillpointCore

/// The stored row whose unique key a new row would repeat, found after SQLite refused the insert.
struct UniqueKeyClash {
    let id: Int64
    let values: ContiguousArray<AttributeValue>
    let version: Int64
    /// The uniqueness constraint the two rows share values for.
    let constraint: [String]

    /// The row `values` (in attribute order) clashes with, other than the row `excluded`, or `nil`. A constraint
    /// with a null among the values cannot clash: SQLite's unique indexes hold any number of nulls.
    init?(values: ContiguousArray<AttributeValue>, entity: EntityDescription, in db: Database, excluding excluded: Int64? = nil) throws {
        for constraint in entity.uniquenessConstraints {
            let key = constraint.map { values[entity.attributePositions[$0]!] }  // swiftlint:disable:this force_unwrapping: names from the schema
            guard !key.contains(where: \.isNull) else { continue }
            let condition = (constraint.map { "\(Store.quote($0)) = ?" } + ["\"_id\" IS NOT ?"]).joined(separator: " AND ")
            var found: (Int64, ContiguousArray<AttributeValue>, Int64)?
            let sql = "SELECT \(StoreRows.objectColumns(of: entity)) FROM \(Store.quote(entity.name)) WHERE \(condition)"
            try db.query(sql, key + [excluded.map(AttributeValue.integer) ?? .null]) { statement in
                found = try (sqlite3_column_int64(statement, 0), StoreRows.values(of: entity, from: statement), sqlite3_column_int64(statement, 1))
            }
            if let (id, values, version) = found {
                (self.id, self.values, self.version, self.constraint) = (id, values, version, constraint)
                return
            }
        }
        return nil
    }
}
