extension ImportOperation {
    /// A many-to-many relationship of the imported entity, and the object that every row the import meets is
    /// linked to through it: an import run that read a session, say. A row already linked to it stays as it is.
    ///
    /// ```swift
    /// let link = ImportOperation.Link("importRuns", to: ObjectID(entity: ImportRun.entity, rowID: run))
    /// ```
    public struct Link: Sendable {
        /// The many-to-many relationship of the imported entity.
        public let relationship: String
        /// The object at its other end.
        public let object: ObjectID

        public init(_ relationship: String, to object: ObjectID) {
            self.relationship = relationship
            self.object = object
        }

        /// The link table's rows as an import of their own, keyed by both columns: a link that exists is met
        /// unchanged, a missing one inserted.
        struct Plan: Sendable {
            let plan: ImportPlan
            let ownColumn: String
            let otherColumn: String
            let objectRow: Int64

            func batch(linking rowIDs: [Int64], author: String, origin: StoreOrigin) throws -> ImportBatch {
                var rows: [ImportPlan.Row] = []
                rows.reserveCapacity(rowIDs.count)
                for rowID in Set(rowIDs).sorted() {
                    if case .row(let row) = try plan.check(ImportRecord([ownColumn: .integer(rowID), otherColumn: .integer(objectRow)])) {
                        rows.append(row)
                    }
                }
                return ImportBatch(plan: plan, rows: rows, author: author, origin: origin)
            }
        }

        /// - Throws: ``SchemaError`` when the relationship is not a many-to-many of `entity`, or the object is
        ///   not a saved object of its destination.
        func plan(from entity: EntityDescription, in schema: Schema) throws -> Plan {
            guard let description = entity.relationship(named: relationship) else {
                throw SchemaError.invalidDeclaration("an import of \(entity.name) links through '\(relationship)', which is not a relationship of \(entity.name)")
            }
            let destination = try schema.entity(named: description.destination)
            guard description.isManyToMany(in: destination) else {
                throw SchemaError.invalidDeclaration("an import of \(entity.name) links through '\(relationship)', which is not a many-to-many relationship")
            }
            guard object.entityName == destination.name, let objectRow = object.rowID else {
                throw SchemaError.invalidDeclaration("an import of \(entity.name) links through '\(relationship)' to \(object), which is not a saved \(destination.name)")
            }
            let link = ManyToManyLink(description, of: entity.name)
            let linkEntity = try schema.entity(named: link.entityName)
            return Plan(plan: try ImportPlan(entity: linkEntity, key: [link.ownColumn, link.otherColumn]),
                        ownColumn: link.ownColumn, otherColumn: link.otherColumn, objectRow: objectRow)
        }
    }
}
