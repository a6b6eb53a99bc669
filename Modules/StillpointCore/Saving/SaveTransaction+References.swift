extension SaveTransaction {
    /// Whether an insert or update refers to an object inserted by this save, whose row id the writer learns as it
    /// writes: the writer then turns those references into row ids (``resolving(_:of:rowIDs:)``).
    package var refersToUnsavedObjects: Bool {
        inserts.contains { ObjectGraph.refersToUnsaved($0.values, $0.entity) }
            || updates.contains { ObjectGraph.refersToUnsaved($0.values, $0.entity) }
    }


    /// `values` with each reference to an unsaved object in `rowIDs` (by temporary ID number) turned into its row id.
    package static func resolving(_ values: ContiguousArray<AttributeValue>, of entity: EntityDescription,
                                  rowIDs: [UInt64: Int64]) -> ContiguousArray<AttributeValue> {
        var resolved = values
        for (_, position) in entity.referencePositions {
            guard let number = RelationshipReference.temporaryNumber(in: values[position]), let rowID = rowIDs[number] else { continue }
            resolved[position] = .integer(rowID)
        }
        return resolved
    }

    /// The updates with references to unsaved objects turned into row ids, once the inserts are written.
    package func resolvingUpdates(_ rowIDs: [UInt64: Int64]) -> SaveTransaction {
        var resolved = self
        resolved.updates = updates.map { update in
            Update(id: update.id, entityRef: update.entityRef, values: Self.resolving(update.values, of: update.entity, rowIDs: rowIDs),
                   readValues: update.readValues, version: update.version)
        }
        return resolved
    }
}
