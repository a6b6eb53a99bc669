import Foundation

extension ObjectGraph {
    /// The objects that match a request, including the context's unsaved changes when the request asks for them.
    func fetchObjects(_ request: FetchRequest) throws -> [ManagedObject] {
        let entity = request.entity
        let affected = affectedObjects(for: request)
        let window = affected.isEmpty ? (request.limit, request.offset) : (request.limit.map { $0 + (request.offset ?? 0) + affected.count }, nil)
        let affectedIDs = Set(affected.map(\.objectID)).union(parentSnapshot?.deleted ?? [])
        var objects: [ManagedObject] = []
        try withReader { reader in
            try reader.forEachObject(request, limit: window.0, offset: window.1, streaming: false) { rowID, version, values in
                let id = ObjectID(entityName: entity.name, rowID: rowID)
                guard affectedIDs.isEmpty || !affectedIDs.contains(id) else { return }
                objects.append(register(id: id, entity: entity, values: values, version: version))
            }
        }
        if !affected.isEmpty {
            objects += try affected.filter { try !$0.isDeleted && matches($0, request.predicate) }
            if !request.sortKeys.isEmpty {
                objects.sort { Self.precedes($0, $1, by: request.sortKeys) }
            }
            let start = min(request.offset ?? 0, objects.count)
            let end = request.limit.map { min(start + $0, objects.count) } ?? objects.count
            objects = Array(objects[start..<end])
        }
        for keyPath in request.prefetchedRelationships {
            try prefetch(keyPath, of: objects, entity: entity)
        }
        return objects
    }

    /// The number of objects a fetch would return, counted in SQL.
    func count(_ request: FetchRequest) throws -> Int {
        // Decided in memory: the unsaved changes, and a child's view of its parent's, whose entries are counted
        // from their values rather than made into objects (a child of a context holding 50,000 would make them all).
        let pending = request.includesPendingChanges ? pendingObjects(of: request.entity) : []
        var decided = Set(pending.map(\.objectID))
        var matching = try pending.filter { try !$0.isDeleted && matches($0, request.predicate) }.count
        for (id, entry) in parentSnapshot?.entries(of: request.entity) ?? [] where decided.insert(id).inserted {
            if try matches(entry.values, id: id, of: request.entity, request.predicate) { matching += 1 }
        }
        let deletedByParent = parentSnapshot?.deleted.compactMap(\.rowID) ?? []
        var unwindowed = request
        unwindowed.limit = nil
        unwindowed.offset = nil
        var total = 0
        if decided.isEmpty && deletedByParent.isEmpty {
            total = try withReader { reader in try reader.count(unwindowed) }
        } else {
            let excluded = Set(decided.compactMap(\.rowID)).union(deletedByParent)
            try withReader { reader in
                try reader.forEachRowID(unwindowed) { rowID in
                    if !excluded.contains(rowID) { total += 1 }
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
        let batchSize = max(1, request.batchSize)
        try withReader { reader in
            var batch: [ManagedObject] = []
            var fresh: [ManagedObject] = []
            func flush() throws {
                try body(batch)
                for object in fresh where !object.hasChanges { unregister(object) }
                batch.removeAll(keepingCapacity: true)
                fresh.removeAll(keepingCapacity: true)
            }
            // Streaming: the batch body may run the same query again.
            try reader.forEachObject(request, limit: request.limit, offset: request.offset, streaming: true) { rowID, version, values in
                let id = ObjectID(entityName: entity.name, rowID: rowID)
                let isNew = registered[id] == nil
                let object = register(id: id, entity: entity, values: values, version: version)
                batch.append(object)
                if isNew { fresh.append(object) }
                if batch.count == batchSize { try flush() }
            }
            if !batch.isEmpty { try flush() }
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

    func matches(_ object: ManagedObject, _ predicate: FetchPredicate?) throws -> Bool {
        try matches(object.values, id: object.objectID, of: object.entity, predicate)
    }

    /// Whether the values of the object `id` match; key paths and quantifiers read related objects through the
    /// context, and a read that fails is thrown.
    func matches(_ values: ContiguousArray<AttributeValue>, id: ObjectID, of entity: EntityDescription, _ predicate: FetchPredicate?) throws -> Bool {
        guard let predicate else { return true }
        let subject = GraphPredicateSubject(graph: self, id: id, entity: entity, values: values, failure: .init())
        let matched = PredicateEvaluator.evaluate(predicate.root, subject)
        if let error = subject.failure.error { throw error }
        return matched
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
    package func attribute(position name: String) throws(SchemaError) -> AttributeDescription {
        storedAttributes[try position(of: name)]
    }
}
