import Foundation
import GRDB
import GRDBSQLite

extension ObjectGraph {
    /// A dictionary fetch as SQL: its columns (key, expression, type), statement and arguments.
    struct DictionaryQuery {
        var columns: [(key: String, sql: String, type: AttributeType?)]
        var sql: String
        var arguments: [AttributeValue]
    }

    /// Rows of chosen attributes and aggregates, computed in SQL from the saved state of the store.
    func fetchDictionaries(_ request: FetchRequest) throws -> [[String: AttributeValue]] {
        let query = try dictionaryQuery(request)
        var rows: [[String: AttributeValue]] = []
        try forEachRow(query) { values in
            var row: [String: AttributeValue] = [:]
            for (column, value) in zip(query.columns, values) { row[column.key] = value }
            rows.append(row)
        }
        return rows
    }

    /// Streams the rows of a dictionary fetch, each as values in the order of the request's properties.
    func forEachRow(_ request: FetchRequest, _ body: (ContiguousArray<AttributeValue>) throws -> Void) throws {
        try forEachRow(try dictionaryQuery(request), body)
    }

    private func forEachRow(_ query: DictionaryQuery, _ body: (ContiguousArray<AttributeValue>) throws -> Void) throws {
        var values = ContiguousArray<AttributeValue>()
        values.reserveCapacity(query.columns.count)
        try withDatabase { db in
            // A statement of its own: the body may run the same query again.
            let statement = try db.makeStatement(sql: query.sql)
            try db.query(statement, query.arguments) { handle in
                values.removeAll(keepingCapacity: true)
                for (offset, column) in query.columns.enumerated() {
                    values.append(AttributeValue(column: Int32(offset), of: handle, as: column.type))
                }
                try body(values)
            }
        }
    }

    func dictionaryQuery(_ request: FetchRequest) throws -> DictionaryQuery {
        let entity = request.entity
        let properties = request.properties.isEmpty ? entity.attributes.map { FetchProperty.attribute($0.name) } : request.properties
        var columns: [(key: String, sql: String, type: AttributeType?)] = []
        for property in properties {
            switch property {
            case .attribute(let name):
                columns.append((name, Store.quote(name), try entity.attribute(position: name).type))
            case .aggregate(let function, let name, let alias):
                let type = try entity.attribute(position: name).type
                columns.append((alias, "\(function.sqlName)(\(Store.quote(name)))", function.resultType(for: type)))
            case .count(let alias):
                columns.append((alias, "COUNT(*)", .integer))
            }
        }
        // Group predicates and sort keys may name an aggregate by its alias.
        let resolveKey: (String) throws -> PredicateKeyResolution = { key in
            if let column = columns.first(where: { $0.key == key }) {
                return PredicateKeyResolution(sql: column.sql, type: column.type)
            }
            return PredicateKeyResolution(sql: Store.quote(key), type: try entity.attribute(position: key).type)
        }
        var sql = "SELECT \(columns.map(\.sql).joined(separator: ", ")) FROM \(Store.quote(entity.name))"
        var arguments: [AttributeValue] = []
        if let predicate = request.predicate {
            let fragment = try predicate.sqlFragment(resolvingKeysWith: attributeResolver(entity))
            sql += " WHERE \(fragment.sql)"
            arguments += fragment.arguments
        }
        if !request.groupBy.isEmpty {
            for name in request.groupBy { _ = try entity.attribute(position: name) }
            sql += " GROUP BY " + request.groupBy.map(Store.quote).joined(separator: ", ")
        }
        if let having = request.having {
            let fragment = try having.sqlFragment(resolvingKeysWith: resolveKey)
            sql += " HAVING \(fragment.sql)"
            arguments += fragment.arguments
        }
        if !request.sortKeys.isEmpty {
            sql += " ORDER BY " + (try request.sortKeys.map { "\(try resolveKey($0.attribute).sql) \($0.ascending ? "ASC" : "DESC")" })
                .joined(separator: ", ")
        }
        sql += Self.windowClause(limit: request.limit, offset: request.offset)
        return DictionaryQuery(columns: columns, sql: sql, arguments: arguments)
    }
}
