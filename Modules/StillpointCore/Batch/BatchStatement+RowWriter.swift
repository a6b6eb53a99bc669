import Foundation

/// A batch statement written through a store's row writes (``SaveRowWriter``), on every store: a delete or update
/// is one statement whose changed rows the store reports; an insert resolves a taken unique key by the merge
/// policy, as a save does. The change-log entry is written in the same transaction.
extension BatchStatement {
    /// Runs the batch in the caller's transaction and records its change set, published on `hub` once it commits.
    ///
    /// ```swift
    /// let result = try BatchStatement.delete(request).run(rows: writer, author: "cleanup", origin: origin, policy: .error, hub: hub)
    /// ```
    package func run(rows: some SaveRowWriter, author: String, origin: StoreOrigin, policy: MergePolicy, hub: ChangeSetHub) throws -> BatchResult {
        var inserted: [Int64] = [], updated: [Int64] = [], deleted: [Int64] = []
        var changedAttributes: Set<String> = []
        switch self {
        case .delete(let request):
            deleted = try rows.deleteRows(matching: request)
        case .update(let request, let values):
            let assigned = values.sorted { $0.key < $1.key }
            updated = try rows.updateRows(matching: request, setting: assigned.map { (name: $0.key, value: $0.value) })
            changedAttributes = Set(assigned.map(\.key))
        case .insert(let entity, let newRows):
            (inserted, updated, changedAttributes) = try Self.insert(newRows, of: entity, rows: rows, policy: policy)
        }
        return try rows.recordBatch(entityName: entity.name, inserted: inserted, updated: updated, deleted: deleted,
                                    changedAttributes: changedAttributes, author: author, origin: origin, hub: hub)
    }

    /// A batch insert: the rows inserted, the stored rows the policy wrote over, and the attributes it wrote.
    private static func insert(_ newRows: [[String: AttributeValue]], of entity: EntityDescription, rows: some SaveRowWriter,
                               policy: MergePolicy) throws -> (inserted: [Int64], updated: [Int64], changed: Set<String>) {
        var inserted: [Int64] = [], updated: [Int64] = []
        var changedAttributes: Set<String> = []
        let allValues = newRows.map { row in ContiguousArray(entity.storedAttributes.map { row[$0.name] ?? $0.valueWhenUnset }) }
        // All in one go when no key is taken; otherwise one by one, since how the policy settles a clash may
        // change what the rows after it meet.
        var written: [Int64?] = []
        if newRows.count > 1, try rows.undoingUnless({
            written = try rows.insertRows(allValues, of: entity)
            return !written.contains(nil)
        }) {
            return (written.compactMap { $0 }, [], [])
        }
        for (row, values) in zip(newRows, allValues) {
            if let id = try rows.insertRow(values, of: entity) {
                inserted.append(id)
                continue
            }
            guard let clash = try rows.rowHolding(uniqueKeyOf: values, entity: entity, excluding: nil) else {
                throw SaveError.validation([.uniquenessViolation(of: .temporaryID(of: entity), attributes: [], values: [])])
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
        return (inserted, updated, changedAttributes)
    }

    /// The values of the attributes `names`, in that order.
    private static func values(_ names: [String], of values: ContiguousArray<AttributeValue>, in entity: EntityDescription) -> [AttributeValue] {
        names.compactMap { name in entity.attributePositions[name].map { values[$0] } }
    }
}
