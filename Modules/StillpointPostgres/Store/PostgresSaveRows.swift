import Foundation
import StillpointCore
import StillpointSQL

/// The row writes of a save, import or batch on PostgreSQL: `INSERT ... ON CONFLICT DO NOTHING RETURNING`, version-checked
/// `UPDATE ... RETURNING` and `DELETE ... RETURNING` (a conflict is an id that did not come back), the change-log
/// entry with its `NOTIFY`, all in the caller's transaction.
///
/// ```swift
/// let outcome = try transaction.run(rows: PostgresSaveRows(connection, commitActions: actions), hub: hub)
/// ```
package struct PostgresSaveRows: SaveRowWriter {
    let connection: PostgresConnection
    let commitActions: PostgresCommitActions
    let dialect = SQLDialect.postgreSQL

    package init(_ connection: PostgresConnection, commitActions: PostgresCommitActions) {
        self.connection = connection
        self.commitActions = commitActions
    }

    package func insertRow(_ values: ContiguousArray<AttributeValue>, of entity: EntityDescription) throws -> Int64? {
        try PostgresRowInsert(entity).insertUnlessTaken(values, on: connection)
    }

    package func insertRows(_ rows: [ContiguousArray<AttributeValue>], of entity: EntityDescription) throws -> [Int64?] {
        try PostgresBulkInsert(entity, on: connection).insert(rows)
    }

    package func undoingUnless(_ body: () throws -> Bool) throws -> Bool {
        try undoingUnless(body) { _ = try connection.execute($0) }
    }

    package func updateRow(_ values: ContiguousArray<AttributeValue>, of entity: EntityDescription, rowID: Int64,
                           version: Int64) throws -> RowWriteResult {
        let insert = PostgresRowInsert(entity)
        var parameters = try insert.parameters(values)
        let assignments = insert.columns.enumerated().map { "\(dialect.quote($1)) = $\($0 + 1)" }
        parameters += [String(rowID), String(version)]
        let sql = "UPDATE \(dialect.quote(entity.name)) SET " + (assignments + ["\"_version\" = \"_version\" + 1"]).joined(separator: ", ")
            + " WHERE \"_id\" = $\(parameters.count - 1)::bigint AND \"_version\" = $\(parameters.count)::bigint RETURNING \"_id\""
        // A refused statement aborts a PostgreSQL transaction: a savepoint keeps the save going past a clash.
        let guarded = !entity.uniquenessConstraints.isEmpty
        guard guarded else { return try connection.execute(sql, parameters).rowCount == 1 ? .written : .stale }
        try connection.execute("SAVEPOINT stillpoint_row")
        let outcome: Result<PostgresResult, PostgresError> = Result { () throws(PostgresError) in try connection.execute(sql, parameters) }
        switch outcome {
        case .success(let result):
            try connection.execute("RELEASE SAVEPOINT stillpoint_row")
            return result.rowCount == 1 ? .written : .stale
        case .failure(let error) where error.isUniqueViolation:
            try connection.execute("ROLLBACK TO SAVEPOINT stillpoint_row")
            return .uniqueKeyTaken
        case .failure(let error):
            throw error
        }
    }

    package func updateRows(_ rows: [(rowID: Int64, version: Int64, values: ContiguousArray<AttributeValue>)],
                            of entity: EntityDescription) throws -> [Bool] {
        let insert = PostgresRowInsert(entity)
        let columns = insert.columns
        let types = ["bigint", "bigint"] + entity.storedAttributes.map { Self.castType($0.type) }
            + Array(repeating: "text", count: columns.count - entity.storedAttributes.count)
        let width = types.count
        let names = (["_id", "_version"] + columns).map(dialect.quote).joined(separator: ", ")
        let assignments = columns.map { "\(dialect.quote($0)) = v.\(dialect.quote($0))" } + ["\"_version\" = t.\"_version\" + 1"]
        var written: Set<Int64> = []
        // At most 65,535 parameters and 1,000 rows per statement.
        let perStatement = max(1, min(1_000, 65_535 / width))
        for start in stride(from: 0, to: rows.count, by: perStatement) {
            let chunk = rows[start..<min(start + perStatement, rows.count)]
            var parameters: [String?] = []
            var tuples: [String] = []
            for row in chunk {
                // Typed, since a VALUES list in FROM takes its column types from its rows.
                tuples.append("(" + types.enumerated().map { "$\(parameters.count + $0 + 1)::\($1)" }.joined(separator: ", ") + ")")
                parameters += [String(row.rowID), String(row.version)] + (try insert.parameters(row.values))
            }
            let sql = "UPDATE \(dialect.quote(entity.name)) AS t SET \(assignments.joined(separator: ", ")) FROM (VALUES "
                + tuples.joined(separator: ", ") + ") AS v (\(names)) WHERE t.\"_id\" = v.\"_id\" AND t.\"_version\" = v.\"_version\" "
                + "RETURNING t.\"_id\""
            let result = try connection.execute(sql, parameters)
            written.formUnion((0..<result.rowCount).compactMap { result.integer(row: $0, column: 0) })
        }
        return rows.map { written.contains($0.rowID) }
    }

    package func deleteRows(_ rows: [(rowID: Int64, version: Int64)], of entity: EntityDescription) throws -> [Bool] {
        guard !rows.isEmpty else { return [] }
        // Two array parameters, however many rows.
        let sql = "DELETE FROM \(dialect.quote(entity.name)) WHERE (\"_id\", \"_version\") IN "
            + "(SELECT * FROM unnest($1::bigint[], $2::bigint[])) RETURNING \"_id\""
        let result = try connection.execute(sql, ["{" + rows.map { String($0.rowID) }.joined(separator: ",") + "}",
                                                  "{" + rows.map { String($0.version) }.joined(separator: ",") + "}"])
        let deleted = Set((0..<result.rowCount).compactMap { result.integer(row: $0, column: 0) })
        return rows.map { deleted.contains($0.rowID) }
    }

    /// The type a parameter of an attribute of `type` is cast to.
    private static func castType(_ type: AttributeType) -> String {
        switch type {
        case .integer, .bool: return "bigint"
        case .double, .date: return "double precision"
        case .string, .uuid: return "text"
        case .binary: return "bytea"
        }
    }

    package func deleteRow(of entity: EntityDescription, rowID: Int64, version: Int64?) throws -> Bool {
        var sql = "DELETE FROM \(dialect.quote(entity.name)) WHERE \"_id\" = $1::bigint"
        var parameters: [String?] = [String(rowID)]
        if let version {
            sql += " AND \"_version\" = $2::bigint"
            parameters.append(String(version))
        }
        return try connection.execute(sql + " RETURNING \"_id\"", parameters).rowCount == 1
    }

    package func storedRow(id: Int64, of entity: EntityDescription) throws -> (ContiguousArray<AttributeValue>, Int64)? {
        try PostgresStoreConnection(connection).storedRow(id: id, of: entity)
    }

    package func rowHolding(uniqueKeyOf values: ContiguousArray<AttributeValue>, entity: EntityDescription, excluding excluded: Int64?)
        throws -> (id: Int64, values: ContiguousArray<AttributeValue>, version: Int64, constraint: [String])? {
        let positions = Dictionary(uniqueKeysWithValues: entity.storedAttributes.enumerated().map { ($1.name, $0) })
        for constraint in entity.uniquenessConstraints {
            let key = constraint.compactMap { positions[$0].map { values[$0] } }
            // A unique index holds any number of rows with a null in the key.
            guard key.count == constraint.count, !key.contains(where: \.isNull) else { continue }
            var conditions = zip(constraint, key).enumerated().map { "\(dialect.quote($1.0)) = \(dialect.parameter($0 + 1, for: $1.1))" }
            var arguments = key
            if let excluded {
                arguments.append(.integer(excluded))
                conditions.append("\"_id\" <> \(dialect.parameter(arguments.count, for: .integer(excluded)))")
            }
            let sql = "SELECT \(PostgresStoreConnection.objectColumns(of: entity)) FROM \(dialect.quote(entity.name)) WHERE "
                + conditions.joined(separator: " AND ") + " LIMIT 1"
            var found: (Int64, ContiguousArray<AttributeValue>, Int64)?
            try PostgresStoreConnection.forEachObjectRow(try connection.execute(sql, arguments.map(PostgresValueText.text)), of: entity) {
                found = ($0, $2, $1)
            }
            if let (id, stored, version) = found { return (id, stored, version, constraint) }
        }
        return nil
    }

    package func rows(of entity: EntityDescription, keyedBy names: [String], among keys: [[AttributeValue]])
        throws -> [(id: Int64, values: ContiguousArray<AttributeValue>, version: Int64)] {
        var found: [(id: Int64, values: ContiguousArray<AttributeValue>, version: Int64)] = []
        // At most 60,000 parameters per statement.
        for query in dialect.keyLookups(of: entity, keyedBy: names, among: keys, maxParameters: 60_000) {
            try PostgresStoreConnection.forEachObjectRow(try connection.execute(query.sql, query.arguments.map(PostgresValueText.text)), of: entity) {
                found.append(($0, $2, $1))
            }
        }
        return found
    }

    package func recordChanges(_ payload: String, author: String, origin: StoreOrigin, timestamp: Date) throws -> Int64 {
        try PostgresChangeLog.record(author: author, timestamp: timestamp.timeIntervalSince1970, changes: payload,
                                     origin: origin.processToken, on: connection)
    }

    package func afterCommit(_ action: @escaping @Sendable () -> Void) {
        commitActions.append(action)
    }
}
