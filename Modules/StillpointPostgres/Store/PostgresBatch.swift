import StillpointCore

/// A batch delete, update or insert on PostgreSQL: one `DELETE`/`UPDATE ... RETURNING "_id"` (the rows it
/// changed come back with it), or inserts with `ON CONFLICT DO NOTHING RETURNING` and the merge policy for taken
/// keys, as SQLite's store applies it. The change-log entry is written in the same transaction.
///
/// ```swift
/// let result = try PostgresStoreConnection.writing(on: connection) { try $0.run(.delete(request), author: "me", origin: origin, policy: .error, hub: hub) }
/// ```
struct PostgresBatch {
    let rows: PostgresSaveRows
    private let dialect = SQLDialect.postgreSQL

    init(_ rows: PostgresSaveRows) {
        self.rows = rows
    }

    func run(_ batch: BatchStatement, author: String, origin: StoreOrigin, policy: MergePolicy, hub: ChangeSetHub) throws -> BatchResult {
        let entity: EntityDescription
        switch batch {
        case .delete(let request), .update(let request, _): entity = request.entity
        case .insert(let inserted, _): entity = inserted
        }
        let table = dialect.quote(entity.name)
        var inserted: [Int64] = [], updated: [Int64] = [], deleted: [Int64] = []
        var changedAttributes: Set<String> = []
        switch batch {
        case .delete(let request):
            let condition = try whereClause(request, firstParameter: 1)
            deleted = ids(try rows.connection.execute("DELETE FROM \(table)\(condition.sql) RETURNING \"_id\"",
                                                      condition.arguments.map(PostgresValueText.text)))
        case .update(let request, let values):
            let assigned = values.sorted { $0.key < $1.key }
            var columns: [String] = [], parameters: [String?] = []
            for (name, value) in assigned {
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
            updated = ids(try rows.connection.execute(
                "UPDATE \(table) SET \(assignments.joined(separator: ", "))\(condition.sql) RETURNING \"_id\"",
                parameters + condition.arguments.map(PostgresValueText.text)))
            changedAttributes = Set(assigned.map(\.key))
        case .insert(let entity, let newRows):
            let allValues = newRows.map { row in ContiguousArray(entity.storedAttributes.map { row[$0.name] ?? $0.valueWhenUnset }) }
            // All in one go when no key is taken; otherwise one by one, since how the policy settles a clash may
            // change what the rows after it meet.
            var written: [Int64?] = []
            if newRows.count > 1, try rows.undoingUnless({
                written = try rows.insertRows(allValues, of: entity)
                return !written.contains(nil)
            }) {
                inserted = written.compactMap { $0 }
                break
            }
            for (row, values) in zip(newRows, allValues) {
                if let id = try rows.insertRow(values, of: entity) {
                    inserted.append(id)
                    continue
                }
                guard let clash = try rows.rowHolding(uniqueKeyOf: values, entity: entity, excluding: nil) else {
                    throw PostgresError(message: "a row of the batch insert into \(entity.name) was refused, and no row holds its key",
                                        target: rows.connection.target.description)
                }
                switch policy {
                case .error:
                    // The stored row, or a temporary ID when the clash is with an earlier row of this batch.
                    let clashingID = inserted.contains(clash.id) ? ObjectID.temporaryID(of: entity) : ObjectID(entity: entity, rowID: clash.id)
                    throw SaveError.validation([.uniquenessViolation(
                        of: clashingID, attributes: clash.constraint, values: Self.values(clash.constraint, of: clash.values, in: entity))])
                case .mergeByPropertyStoreTrump, .rollback:
                    continue  // the stored row stays as it is
                case .mergeByPropertyObjectTrump, .overwrite:
                    // Object-trump writes the attributes the row names; overwrite the whole row, defaults included.
                    var merged = clash.values
                    for (position, attribute) in entity.storedAttributes.enumerated() where policy == .overwrite || row[attribute.name] != nil {
                        merged[position] = values[position]
                    }
                    switch try rows.updateRow(merged, of: entity, rowID: clash.id, version: clash.version) {
                    case .written:
                        updated.append(clash.id)
                        changedAttributes.formUnion(entity.storedAttributes.map(\.name).filter { policy == .overwrite || row[$0] != nil })
                    case .stale, .uniqueKeyTaken:
                        // The row's values also repeat another row's key: two rows cannot become one.
                        let other = try rows.rowHolding(uniqueKeyOf: merged, entity: entity, excluding: clash.id)
                        let constraint = other?.constraint ?? clash.constraint
                        throw SaveError.validation([.uniquenessViolation(
                            of: ObjectID(entity: entity, rowID: other?.id ?? clash.id),
                            attributes: constraint, values: Self.values(constraint, of: merged, in: entity))])
                    }
                }
            }
        }
        return try rows.recordBatch(entityName: entity.name, inserted: inserted, updated: updated, deleted: deleted,
                                    changedAttributes: changedAttributes, author: author, origin: origin, hub: hub)
    }

    private func ids(_ result: PostgresResult) -> [Int64] {
        (0..<result.rowCount).compactMap { result.integer(row: $0, column: 0) }
    }

    private static func values(_ names: [String], of values: ContiguousArray<AttributeValue>, in entity: EntityDescription) -> [AttributeValue] {
        names.compactMap { name in entity.storedAttributes.firstIndex { $0.name == name }.map { values[$0] } }
    }

    /// ` WHERE predicate`, or nothing, with parameters numbered from `firstParameter`.
    private func whereClause(_ request: FetchRequest, firstParameter: Int) throws -> SQLFragment {
        guard let predicate = request.predicate else { return SQLFragment(sql: "") }
        let fragment = try predicate.sqlFragment(in: dialect, firstParameter: firstParameter, entity: request.entity,
                                                 resolvingKeysWith: dialect.attributeResolver(request.entity))
        return SQLFragment(sql: " WHERE \(fragment.sql)", arguments: fragment.arguments)
    }
}
