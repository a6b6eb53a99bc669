/// The SELECT statements of fetch requests, in a dialect.
extension SQLDialect {
    /// Resolves a predicate's keys to the entity's columns.
    package func attributeResolver(_ entity: EntityDescription) -> (String) throws -> PredicateKeyResolution {
        { key in
            // `_id`: a row's id, which a batch delete names the rows it read by.
            if key == "_id" { return PredicateKeyResolution(sql: quote(key), type: .integer) }
            return PredicateKeyResolution(sql: quote(key), type: try entity.attribute(position: key).type)
        }
    }

    /// `SELECT columns FROM entity WHERE predicate ORDER BY keys, _id LIMIT OFFSET`; a count (`COUNT(*)`) has
    /// no order and no window.
    package func select(_ request: FetchRequest, columns: String, limit: Int? = nil, offset: Int? = nil) throws -> SQLFragment {
        let entity = request.entity
        var sql = "SELECT \(columns) FROM \(quote(entity.name))"
        var arguments: [AttributeValue] = []
        if let predicate = request.predicate {
            let fragment = try predicate.sqlFragment(in: self, entity: entity, resolvingKeysWith: attributeResolver(entity))
            sql += " WHERE \(fragment.sql)"
            arguments = fragment.arguments
        }
        if columns != "COUNT(*)" {
            for key in request.sortKeys { _ = try entity.attribute(position: key.attribute) }
            let order = request.sortKeys.map { "\(quote($0.attribute)) \(direction(ascending: $0.ascending))" } + ["\(quote("_id")) ASC"]
            sql += " ORDER BY " + order.joined(separator: ", ")
            sql += windowClause(limit: limit, offset: offset)
        }
        return SQLFragment(sql: sql, arguments: arguments)
    }

    /// `"_id", "_version", "a", "b"`: the columns an object read selects, in attribute order.
    package func objectColumns(of entity: EntityDescription) -> String {
        (["\"_id\"", "\"_version\""] + entity.storedAttributes.map { quote($0.name) }).joined(separator: ", ")
    }

    /// The `SELECT`s of ``objectColumns(of:)`` that find the stored rows whose attributes `names` hold one of `keys`
    /// (each a value per name), at most `maxParameters` parameters each: every key attribute narrowed by an `IN`
    /// list, a superset for a composite key, which the caller's exact match by key sorts out.
    ///
    /// ```swift
    /// dialect.keyLookups(of: session, keyedBy: ["uid"], among: [[.integer(1)], [.integer(2)]], maxParameters: 30_000)
    /// // [SELECT "_id", "_version", ... FROM "Session" WHERE "uid" IN (?, ?)]
    /// ```
    package func keyLookups(of entity: EntityDescription, keyedBy names: [String], among keys: [[AttributeValue]],
                            maxParameters: Int) -> [SQLFragment] {
        guard !names.isEmpty, !keys.isEmpty else { return [] }
        let perStatement = max(1, maxParameters / names.count)
        return stride(from: 0, to: keys.count, by: perStatement).map { start in
            let chunk = keys[start..<min(start + perStatement, keys.count)]
            var conditions: [String] = []
            var arguments: [AttributeValue] = []
            for (offset, name) in names.enumerated() {
                let values = Array(Set(chunk.map { $0[offset] }))
                let list = values.enumerated().map { parameter(arguments.count + $0 + 1, for: $1) }
                arguments += values
                conditions.append("\(quote(name)) IN (\(list.joined(separator: ", ")))")
            }
            return SQLFragment(sql: "SELECT \(objectColumns(of: entity)) FROM \(quote(entity.name)) WHERE " + conditions.joined(separator: " AND "),
                               arguments: arguments)
        }
    }

    /// The SQL expression of a dictionary fetch's column.
    func expression(of column: DictionaryColumn, in entity: EntityDescription) throws -> String {
        switch column.property {
        case .attribute(let name): return try expression(of: name, in: entity)
        case .aggregate(let function, let name, _): return aggregate(function, of: try expression(of: name, in: entity))
        case .count: return "COUNT(*)"
        case .expression(let expression, _): return try expression.sql(in: self, of: entity).sql
        }
    }

    /// An attribute's column, or a key path through relationships as a subquery of the row it reaches.
    func expression(of name: String, in entity: EntityDescription) throws -> String {
        name.contains(".") ? try PredicateSQLCompiler.keyPath(name, of: entity, in: self).sql : quote(name)
    }

    /// A dictionary fetch as one statement: its columns, predicate, grouping, group predicate, order and window.
    package func dictionarySelect(_ request: FetchRequest, columns: [DictionaryColumn]) throws -> SQLFragment {
        let entity = request.entity
        let expressions = try columns.map { try expression(of: $0, in: entity) }
        // Group predicates and sort keys may name an aggregate by its alias.
        let resolveKey: (String) throws -> PredicateKeyResolution = { key in
            if let index = columns.firstIndex(where: { $0.key == key }) {
                return PredicateKeyResolution(sql: expressions[index], type: columns[index].type)
            }
            return PredicateKeyResolution(sql: quote(key), type: try entity.attribute(position: key).type)
        }
        var sql = "SELECT \(expressions.joined(separator: ", ")) FROM \(quote(entity.name))"
        var arguments: [AttributeValue] = []
        if let predicate = request.predicate {
            let fragment = try predicate.sqlFragment(in: self, entity: entity, resolvingKeysWith: attributeResolver(entity))
            sql += " WHERE \(fragment.sql)"
            arguments += fragment.arguments
        }
        if !request.groupBy.isEmpty {
            for name in request.groupBy where !name.contains(".") { _ = try entity.attribute(position: name) }
            sql += " GROUP BY " + (try request.groupBy.map { try expression(of: $0, in: entity) }).joined(separator: ", ")
        }
        if let having = request.having {
            let fragment = try having.sqlFragment(in: self, firstParameter: arguments.count + 1, resolvingKeysWith: resolveKey)
            sql += " HAVING \(fragment.sql)"
            arguments += fragment.arguments
        }
        if !request.sortKeys.isEmpty {
            sql += " ORDER BY " + (try request.sortKeys.map { "\(try resolveKey($0.attribute).sql) \(direction(ascending: $0.ascending))" })
                .joined(separator: ", ")
        }
        sql += windowClause(limit: request.limit, offset: request.offset)
        return SQLFragment(sql: sql, arguments: arguments)
    }
}
