extension ObjectGraph {
    /// The object `id` names, held or read from the store; `nil` when it no longer exists.
    func relatedObject(with id: ObjectID) throws -> ManagedObject? {
        if let object = object(for: id) { return object }
        guard !id.isTemporary else { return nil }
        do {
            return try existingObject(with: id)
        } catch ContextError.objectNotFound {
            return nil
        }
    }

    /// The objects of `destination` whose to-one relationship `inverse` reaches `object`, with unsaved changes.
    func objects(reaching id: ObjectID, through inverse: String, of destination: EntityDescription) throws -> [ManagedObject] {
        let comparison = PredicateComparison(
            lhs: .key(inverse), op: .equal, options: [], rhs: .value(RelationshipReference.value(for: id)))
        return try fetchObjects(FetchRequest(destination, predicate: FetchPredicate(root: .comparison(comparison))))
    }

    /// Loads the objects `keyPath` reaches from `objects`, one query per relationship it follows.
    func prefetch(_ keyPath: String, of objects: [ManagedObject], entity: EntityDescription) throws {
        let parts = keyPath.split(separator: ".", maxSplits: 1).map(String.init)
        guard let name = parts.first, let relationship = entity.relationship(named: name) else {
            throw SchemaError.unknownAttribute(entity: entity.name, attribute: keyPath,
                                               suggestion: NameSuggestion.nearestName(to: keyPath, in: entity.relationships.map(\.name)))
        }
        let destination = try destination(of: relationship)
        var reached: [ManagedObject] = []
        if relationship.isManyToMany(in: destination) {
            reached = try objects.flatMap { try manyToManyTargets(of: $0, relationship) }
        } else if relationship.isReadThroughInverse, let inverse = relationship.inverse {
            let ids = objects.map { RelationshipReference.value(for: $0.objectID) }
            for chunk in stride(from: 0, to: ids.count, by: 500).map({ Array(ids[$0..<min($0 + 500, ids.count)]) }) {
                let comparison = PredicateComparison(lhs: .key(inverse), op: .in, options: [], rhs: .list(chunk))
                reached += try fetchObjects(FetchRequest(destination, predicate: FetchPredicate(root: .comparison(comparison))))
            }
        } else if let position = entity.attributePositions[name] {
            let targets = objects.compactMap { RelationshipReference.objectID(in: $0.values[position], entityName: destination.name) }
            let missing = Set(targets.filter { object(for: $0) == nil }.compactMap(\.rowID))
            if !missing.isEmpty {
                try withReader { reader in
                    try reader.forEachObject(of: destination, rowIDs: Array(missing)) { rowID, version, values in
                        _ = register(id: ObjectID(entityName: destination.name, rowID: rowID), entity: destination, values: values, version: version)
                    }
                }
            }
            reached = targets.compactMap(object(for:))
        }
        if parts.count > 1 { try prefetch(parts[1], of: reached, entity: destination) }
    }

    /// The entity a relationship reaches.
    func destination(of relationship: RelationshipDescription) throws -> EntityDescription {
        try store.schema.entity(named: relationship.destination)
    }

    // MARK: Delete rules

    /// Applies the cascade and nullify rules of a deleted object's relationships, at once, as far as they reach:
    /// related objects are deleted, or let go of it. The deny and noAction rules are checked when the context saves.
    func applyDeleteRules(of object: ManagedObject) throws {
        var pending = [object]
        while let deleted = pending.popLast() {
            for relationship in deleted.entity.relationships where relationship.deleteRule != .deny {
                // Read before a many-to-many's links go: they are the way to what it reaches.
                let reached = relationship.deleteRule == .noAction ? [] : try objects(relatedTo: deleted, by: relationship)
                // The links of a many-to-many go with either side, whatever the rule but deny: none may dangle.
                if relationship.isToMany { try deleteLinks(of: deleted, relationship) }
                for related in reached where !related.isDeleted {
                    if relationship.deleteRule == .cascade {
                        try delete(related, applyingRules: false)
                        pending.append(related)
                    } else if let inverse = relationship.inverse, let position = related.entity.attributePositions[inverse],
                              RelationshipReference.objectID(in: related.values[position], entityName: deleted.entity.name) == deleted.objectID {
                        related.setStoredValue(.null, at: position)
                    }
                }
            }
            // A to-one without an inverse that reaches it lets go: no rule of its own would.
            for (entity, name) in store.schema.unpairedReferences(to: deleted.entity.name) {
                guard let position = entity.attributePositions[name] else { continue }
                for related in try objects(reaching: deleted.objectID, through: name, of: entity) where !related.isDeleted {
                    related.setStoredValue(.null, at: position)
                }
            }
        }
    }

    /// The objects `relationship` of `object` reaches that a delete rule concerns. A to-one nullified on the side
    /// that holds the column concerns nobody: the row that refers goes away.
    private func objects(relatedTo object: ManagedObject, by relationship: RelationshipDescription) throws -> [ManagedObject] {
        let destination = try destination(of: relationship)
        if relationship.isManyToMany(in: destination) {
            return try manyToManyTargets(of: object, relationship)
        }
        if relationship.isReadThroughInverse, let inverse = relationship.inverse {
            return try objects(reaching: object.objectID, through: inverse, of: destination)
        }
        if relationship.deleteRule == .nullify { return [] }
        return try object.relatedObject(forKey: relationship.name).map { [$0] } ?? []
    }

    /// A failure for each deleted object whose deny rule finds related objects that are not deleted, or whose
    /// noAction rule leaves objects referring to it (the store's foreign key would refuse the delete).
    func deniedDeletes() throws -> [ValidationFailure] {
        var failures: [ValidationFailure] = []
        for object in deleted.objects {
            for relationship in object.entity.relationships where relationship.deleteRule == .deny || relationship.deleteRule == .noAction {
                var related = try objects(relatedTo: object, by: relationship).filter { !$0.isDeleted }
                if relationship.deleteRule == .deny {
                    if !related.isEmpty {
                        failures.append(ValidationFailure(objectID: object.objectID, reason: .deleteDenied(relationship: relationship.name, related: related.count)))
                    }
                    continue
                }
                // Only objects that hold a column referring to this one can be left dangling (a link goes with
                // either side, whatever the rule).
                if relationship.isToMany, relationship.isManyToMany(in: try destination(of: relationship)) {
                    related = []
                } else if relationship.isReadThroughInverse, let inverse = relationship.inverse {
                    related = try related.filter { try $0.relatedObject(forKey: inverse) === object }
                } else {
                    related = []
                }
                if !related.isEmpty {
                    failures.append(ValidationFailure(objectID: object.objectID, reason: .danglingReference(relationship: relationship.name)))
                }
            }
        }
        return failures
    }

    // MARK: References to unsaved objects

    /// Puts inserts after the inserts they refer to, so that each refers to a row that exists when it is written.
    /// Inserts come in the order they were made, which usually has every target first: then nothing moves.
    static func orderByReferences(_ inserts: inout [SaveTransaction.Insert], _ objects: inout [ManagedObject?]) throws {
        // Most saves refer to no unsaved object: one look at the reference columns, and nothing to hash.
        guard inserts.contains(where: { Self.refersToUnsaved($0.values, $0.entity) }) else { return }
        var positions: [UInt64: Int] = [:]
        var needsOrder = false
        for (index, insert) in inserts.enumerated() {
            if let number = insert.id.temporaryNumber { positions[number] = index }
        }
        var dependencies = [[Int]](repeating: [], count: inserts.count)
        var failures: [ValidationFailure] = []
        for (index, insert) in inserts.enumerated() {
            for (name, position) in insert.entity.referencePositions {
                guard let number = RelationshipReference.temporaryNumber(in: insert.values[position]) else { continue }
                guard let target = positions[number] else {
                    failures.append(ValidationFailure(objectID: insert.id, reason: .danglingReference(relationship: name)))
                    continue
                }
                dependencies[index].append(target)
                if target > index { needsOrder = true }
            }
        }
        if !failures.isEmpty { throw SaveError.validation(failures) }
        guard needsOrder else { return }
        // Depth-first: each insert after what it refers to; a cycle of unsaved objects cannot be written in one go.
        var order: [Int] = []
        var state = [UInt8](repeating: 0, count: inserts.count)  // 0 new, 1 visiting, 2 done
        func visit(_ index: Int) throws {
            if state[index] == 2 { return }
            guard state[index] == 0 else {
                throw SaveError.validation([ValidationFailure(objectID: inserts[index].id, reason: .danglingReference(
                    relationship: "a cycle of unsaved objects that refer to each other; save one of them first"))])
            }
            state[index] = 1
            for target in dependencies[index] { try visit(target) }
            state[index] = 2
            order.append(index)
        }
        for index in inserts.indices { try visit(index) }
        let (oldInserts, oldObjects) = (inserts, objects.compactMap { $0 })
        inserts = order.map { oldInserts[$0] }
        objects = order.map { oldObjects[$0] }
    }

    /// A failure for each update that refers to an unsaved object the save does not insert (one deleted before it
    /// was ever saved): the store has no row for it.
    static func referencesToUnsavedOutside(_ transaction: SaveTransaction) -> [ValidationFailure] {
        guard transaction.updates.contains(where: { Self.refersToUnsaved($0.values, $0.entity) }) else { return [] }
        let inserted = Set(transaction.inserts.compactMap(\.id.temporaryNumber))
        var failures: [ValidationFailure] = []
        for update in transaction.updates {
            for (name, position) in update.entity.referencePositions {
                guard let number = RelationshipReference.temporaryNumber(in: update.values[position]), !inserted.contains(number) else { continue }
                failures.append(ValidationFailure(objectID: update.id, reason: .danglingReference(relationship: name)))
            }
        }
        return failures
    }

    /// Whether `values` refer to an object not saved yet.
    static func refersToUnsaved(_ values: ContiguousArray<AttributeValue>, _ entity: EntityDescription) -> Bool {
        entity.referencePositions.contains { RelationshipReference.isTemporary(values[$0.position]) }
    }

    /// Whether an object the context holds with unsaved changes refers to an object not saved yet.
    var pendingObjectsReferToUnsaved: Bool {
        inserted.slotsInOrder.contains { $0.map { Self.refersToUnsaved($0.values, $0.entity) } ?? false }
            || updated.slotsInOrder.contains { $0.map { Self.refersToUnsaved($0.values, $0.entity) } ?? false }
    }

    /// Turns references to objects a save made permanent into their row ids, in the objects the context holds with
    /// unsaved changes (what the save wrote got them from the store already), and with `includingSaved` in the
    /// objects it holds as saved too (a child's, saved to its parent with the references as they were).
    func resolveReferences(_ permanentIDs: [ObjectID: ObjectID], includingSaved: Bool) {
        guard !permanentIDs.isEmpty else { return }
        var rowIDs: [UInt64: Int64] = [:]
        for (temporary, permanent) in permanentIDs {
            if let number = temporary.temporaryNumber, let rowID = permanent.rowID { rowIDs[number] = rowID }
        }
        let objects = inserted.objects + updated.objects + (includingSaved ? registered.objects : [])
        for object in objects where !object.entity.referencePositions.isEmpty {
            object.values = SaveTransaction.resolving(object.values, of: object.entity, rowIDs: rowIDs)
            if let committed = object.committedValues {
                object.committedValues = SaveTransaction.resolving(committed, of: object.entity, rowIDs: rowIDs)
            }
        }
    }
}
