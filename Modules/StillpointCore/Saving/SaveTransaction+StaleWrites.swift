extension SaveTransaction {
    /// Settles an update whose version check failed, under its entity's merge policy, the same way on every
    /// store: `stored` is the row as the store holds it now (`nil`: it is gone), `write` writes values over a
    /// version. Returns the names of the attributes the store changed, and what the object should become; a
    /// conflict under `.error` goes to `conflicts`.
    package func settleStaleUpdate(_ update: Update, stored: (values: ContiguousArray<AttributeValue>, version: Int64)?,
                                   conflicts: inout [MergeConflict],
                                   write: (ContiguousArray<AttributeValue>, _ over: Int64) throws -> Bool) throws -> ([String], Result) {
        let entity = update.entity
        guard let (stored, storeVersion) = stored else {
            if policy(entity) == .error {
                conflicts.append(Self.conflict(update.id, entity, read: update.readValues, object: update.values,
                                               readVersion: update.version, stored: nil))
                return ([], .unchanged)
            }
            return ([], .removed)
        }
        var merged = update.values
        switch policy(entity) {
        case .error:
            conflicts.append(Self.conflict(update.id, entity, read: update.readValues, object: update.values,
                                           readVersion: update.version, stored: (stored, storeVersion)))
            return ([], .unchanged)
        case .rollback:
            return ([], .written(Written(values: stored, version: storeVersion)))
        case .overwrite:
            break
        case .mergeByPropertyStoreTrump:
            for position in merged.indices where stored[position] != update.readValues[position] {
                merged[position] = stored[position]
            }
        case .mergeByPropertyObjectTrump:
            for position in merged.indices where update.values[position] == update.readValues[position] {
                merged[position] = stored[position]
            }
        }
        _ = try write(merged, storeVersion)
        return (merged.indices.filter { merged[$0] != stored[$0] }.map { entity.storedAttributes[$0].name },
                .written(Written(values: merged, version: storeVersion + 1)))
    }

    /// Settles a delete whose version check failed, under its entity's merge policy, the same way on every store:
    /// `stored` is the row as the store holds it now (`nil`: someone else deleted it already), `deleteAnyVersion`
    /// deletes it whatever its version. Returns what the object should become; a conflict under `.error` goes to
    /// `conflicts`.
    package func settleStaleDelete(_ delete: Delete, stored: (values: ContiguousArray<AttributeValue>, version: Int64)?,
                                   conflicts: inout [MergeConflict], deleteAnyVersion: () throws -> Void) throws -> Result {
        guard let stored else { return .removed }
        switch policy(delete.entity) {
        case .error:
            conflicts.append(Self.conflict(delete.id, delete.entity, read: delete.readValues, object: delete.readValues,
                                           readVersion: delete.version, stored: (stored.values, stored.version)))
            return .unchanged
        case .rollback:
            return .written(Written(values: stored.values, version: stored.version))
        case .mergeByPropertyStoreTrump, .mergeByPropertyObjectTrump, .overwrite:
            try deleteAnyVersion()
            return .removed
        }
    }
}
