import StillpointCore
import StillpointSQL

/// The batch statements of PostgreSQL's row writes: one `DELETE`/`UPDATE ... RETURNING "_id"`, the rows it changed
/// coming back with it. The core's ``BatchStatement/run(rows:author:origin:policy:hub:)`` runs them, and batch
/// inserts under the merge policy, over ``PostgresSaveRows``.
///
/// ```swift
/// let deleted = try PostgresSaveRows(connection, commitActions: actions).deleteRows(matching: request)
/// ```
extension PostgresSaveRows {
    package func deleteRows(matching request: FetchRequest) throws -> [Int64] {
        let condition = try whereClause(request, firstParameter: 1)
        return ids(try connection.execute("DELETE FROM \(dialect.quote(request.entity.name))\(condition.sql) RETURNING \"_id\"",
                                          condition.arguments.map(PostgresValueText.text)))
    }

    /// Writes the folded copies of a text attribute with it, so that `[c]`/`[d]` comparisons read them.
    package func updateRows(matching request: FetchRequest, setting values: [(name: String, value: AttributeValue)]) throws -> [Int64] {
        let entity = request.entity
        var columns: [String] = [], parameters: [String?] = []
        for (name, value) in values {
            let attribute = try entity.checkedAttribute(named: name)
            try PostgresNULTextError.check([value], of: [attribute], entity: entity.name)
            columns.append(name)
            parameters.append(PostgresValueText.text(value))
            if PostgresSchema.hasFoldedCopies(attribute.type) {
                for flags in SQLDialect.foldFlags {
                    columns.append(SQLDialect.foldedColumnName(name, flags: flags))
                    parameters.append(PostgresValueText.text(dialect.foldedValue(value, flags: flags)))
                }
            }
        }
        let assignments = columns.enumerated().map { "\(dialect.quote($1)) = $\($0 + 1)" } + ["\"_version\" = \"_version\" + 1"]
        let condition = try whereClause(request, firstParameter: parameters.count + 1)
        return ids(try connection.execute(
            "UPDATE \(dialect.quote(entity.name)) SET \(assignments.joined(separator: ", "))\(condition.sql) RETURNING \"_id\"",
            parameters + condition.arguments.map(PostgresValueText.text)))
    }

    private func ids(_ result: PostgresResult) -> [Int64] {
        (0..<result.rowCount).compactMap { result.integer(row: $0, column: 0) }
    }

    /// ` WHERE predicate`, or nothing, with parameters numbered from `firstParameter`.
    private func whereClause(_ request: FetchRequest, firstParameter: Int) throws -> SQLFragment {
        guard let predicate = request.predicate else { return SQLFragment(sql: "") }
        let fragment = try predicate.sqlFragment(in: dialect, firstParameter: firstParameter, entity: request.entity,
                                                 resolvingKeysWith: dialect.attributeResolver(request.entity))
        return SQLFragment(sql: " WHERE \(fragment.sql)", arguments: fragment.arguments)
    }
}
