import Foundation
import GRDB
import GRDBSQLite

extension ObjectGraph {
    /// The objects that match a request, including the context's unsaved changes when the request asks for them.
    func fetchObjects(_ request: FetchRequest) throws -> [ManagedObject] {
        let entity = request.entity
        let affected = affectedObjects(for: request)
        let window = affected.isEmpty ? (request.limit, request.offset) : (request.limit.map { $0 + (request.offset ?? 0) + affected.count }, nil)
        let query = try selectQuery(request, columns: StoreRows.objectColumns(of: entity), limit: window.0, offset: window.1)
        let affectedIDs = Set(affected.map(\.objectID)).union(parentSnapshot?.deleted ?? [])
        var objects: [ManagedObject] = []
        try withDatabase { db in
            try db.query(query.sql, query.arguments) { statement in
                let id = ObjectID(entityName: entity.name, rowID: sqlite3_column_int64(statement, 0))
                guard affectedIDs.isEmpty || !affectedIDs.contains(id) else { return }
                objects.append(register(id: id, entity: entity, values: StoreRows.values(of: entity, from: statement),
                                        version: sqlite3_column_int64(statement, 1)))
            }
        }
        guard !affected.isEmpty else { return objects }
        objects += affected.filter { !$0.isDeleted && matches($0, request.predicate) }
        if !request.sortKeys.isEmpty {
            objects.sort { Self.precedes($0, $1, by: request.sortKeys) }
        }
        let start = min(request.offset ?? 0, objects.count)
        let end = request.limit.map { min(start + $0, objects.count) } ?? objects.count
        return Array(objects[start..<end])
    }

    /// The number of objects a fetch would return, counted in SQL.
    func count(_ request: FetchRequest) throws -> Int {
        // Decided in memory: the unsaved changes, and a child's view of its parent's, whose entries are counted
        // from their values rather than made into objects (a child of a context holding 50,000 would make them all).
        let pending = request.includesPendingChanges ? pendingObjects(of: request.entity) : []
        var decided = Set(pending.map(\.objectID))
        var matching = pending.filter { !$0.isDeleted && matches($0, request.predicate) }.count
        for (id, entry) in parentSnapshot?.entries(of: request.entity) ?? [] where decided.insert(id).inserted {
            if matches(entry.values, of: request.entity, request.predicate) { matching += 1 }
        }
        let deletedByParent = parentSnapshot?.deleted.compactMap(\.rowID) ?? []
        var unwindowed = request
        unwindowed.limit = nil
        unwindowed.offset = nil
        var total = 0
        if decided.isEmpty && deletedByParent.isEmpty {
            let query = try selectQuery(unwindowed, columns: "COUNT(*)")
            try withDatabase { db in
                try db.query(query.sql, query.arguments) { total = Int(sqlite3_column_int64($0, 0)) }
            }
        } else {
            let excluded = Set(decided.compactMap(\.rowID)).union(deletedByParent)
            let query = try selectQuery(unwindowed, columns: "\"_id\"")
            try withDatabase { db in
                try db.query(query.sql, query.arguments) { statement in
                    if !excluded.contains(sqlite3_column_int64(statement, 0)) { total += 1 }
                }
            }
            total += matching
        }
        let afterOffset = max(0, total - (request.offset ?? 0))
        return request.limit.map { min($0, afterOffset) } ?? afterOffset
    }

    /// Streams the objects of a request through a cursor, `batchSize` at a time; objects the batch did not
    /// change are dropped from the context after it, so memory stays flat. Unsaved changes are not included.
    func enumerate(_ request: FetchRequest, batch body: ([ManagedObject]) throws -> Void) throws {
        let entity = request.entity
        let query = try selectQuery(request, columns: StoreRows.objectColumns(of: entity), limit: request.limit, offset: request.offset)
        let batchSize = max(1, request.batchSize)
        try withDatabase { db in
            var batch: [ManagedObject] = []
            var fresh: [ManagedObject] = []
            func flush() throws {
                try body(batch)
                for object in fresh where !object.hasChanges { unregister(object) }
                batch.removeAll(keepingCapacity: true)
                fresh.removeAll(keepingCapacity: true)
            }
            // A statement of its own: the batch body may run the same query again.
            let statement = try db.makeStatement(sql: query.sql)
            try db.query(statement, query.arguments) { handle in
                let id = ObjectID(entityName: entity.name, rowID: sqlite3_column_int64(handle, 0))
                let isNew = registered[id] == nil
                let object = register(id: id, entity: entity, values: StoreRows.values(of: entity, from: handle),
                                      version: sqlite3_column_int64(handle, 1))
                batch.append(object)
                if isNew { fresh.append(object) }
                if batch.count == batchSize { try flush() }
            }
            if !batch.isEmpty { try flush() }
        }
    }

    // MARK: SQL

    func attributeResolver(_ entity: EntityDescription) -> (String) throws -> PredicateKeyResolution {
        { key in PredicateKeyResolution(sql: Store.quote(key), type: try entity.attribute(position: key).type) }
    }

    /// `SELECT columns FROM entity WHERE predicate ORDER BY keys, _id LIMIT OFFSET`.
    func selectQuery(_ request: FetchRequest, columns: String, limit: Int? = nil, offset: Int? = nil) throws -> SQLFragment {
        let entity = request.entity
        var sql = "SELECT \(columns) FROM \(Store.quote(entity.name))"
        var arguments: [AttributeValue] = []
        if let predicate = request.predicate {
            let fragment = try predicate.sqlFragment(resolvingKeysWith: attributeResolver(entity))
            sql += " WHERE \(fragment.sql)"
            arguments = fragment.arguments
        }
        if columns != "COUNT(*)" {
            for key in request.sortKeys { _ = try entity.attribute(position: key.attribute) }
            let order = request.sortKeys.map { "\(Store.quote($0.attribute)) \($0.ascending ? "ASC" : "DESC")" } + ["\"_id\" ASC"]
            sql += " ORDER BY " + order.joined(separator: ", ")
            sql += Self.windowClause(limit: limit, offset: offset)
        }
        return SQLFragment(sql: sql, arguments: arguments)
    }

    static func windowClause(limit: Int?, offset: Int?) -> String {
        switch (limit, offset) {
        case (nil, nil): return ""
        case (let limit?, nil): return " LIMIT \(max(0, limit))"
        case (let limit, let offset?): return " LIMIT \(max(-1, limit ?? -1)) OFFSET \(max(0, offset))"
        }
    }

    // MARK: In memory

    /// The objects whose membership in the request's result is decided in memory: unsaved changes, and the
    /// parent's unsaved changes for a child context.
    private func affectedObjects(for request: FetchRequest) -> [ManagedObject] {
        var objects = request.includesPendingChanges ? pendingObjects(of: request.entity) : []
        var seen = Set(objects.map(\.objectID))
        for (id, entry) in parentSnapshot?.entries(of: request.entity) ?? [] where !seen.contains(id) {
            objects.append(register(id: id, entity: request.entity, values: entry.values, version: entry.version))
            seen.insert(id)
        }
        return objects
    }

    func matches(_ object: ManagedObject, _ predicate: FetchPredicate?) -> Bool {
        matches(object.values, of: object.entity, predicate)
    }

    func matches(_ values: ContiguousArray<AttributeValue>, of entity: EntityDescription, _ predicate: FetchPredicate?) -> Bool {
        guard let predicate else { return true }
        return predicate.evaluate { key in entity.attributePositions[key].map { values[$0] } ?? .null }
    }

    /// Orders objects as the SQL `ORDER BY` does: by the keys, then by row id, unsaved objects last.
    static func precedes(_ lhs: ManagedObject, _ rhs: ManagedObject, by keys: [SortKey]) -> Bool {
        for key in keys {
            let position = lhs.entity.attributePositions[key.attribute] ?? 0
            switch lhs.values[position].compare(to: rhs.values[position]) {
            case .orderedAscending?: return key.ascending
            case .orderedDescending?: return !key.ascending
            default: continue
            }
        }
        return (lhs.objectID.rowID ?? .max) < (rhs.objectID.rowID ?? .max)
    }
}

extension EntityDescription {
    /// The attribute named `name`, or an error that names the entity, the attribute and the nearest name.
    func attribute(position name: String) throws(SchemaError) -> AttributeDescription {
        attributes[try position(of: name)]
    }
}
