extension ImportOperation {
    /// A many-to-many relationship of the imported entity, and the object that every row the import meets is
    /// linked to through it: an import run that read a session, say. A row already linked to it stays as it is.
    ///
    /// A record that names an object of its own (``ImportRecord/link``) is linked to that one instead: a bulk load
    /// of many practitioners links each session to the run of its own practitioner.
    ///
    /// ```swift
    /// let link = ImportOperation.Link("importRuns", to: ObjectID(entity: ImportRun.entity, rowID: run))
    /// let perRecord = ImportOperation.Link(eachRecordThrough: "importRuns")   // every record names its run
    /// ```
    public struct Link: Sendable {
        /// The many-to-many relationship of the imported entity.
        public let relationship: String
        /// The object at its other end; `nil` when every record names its own.
        public let object: ObjectID?

        public init(_ relationship: String, to object: ObjectID) {
            self.relationship = relationship
            self.object = object
        }

        /// A link through `relationship` to the object each record names (``ImportRecord/link``); a record that
        /// names none fails the import.
        public init(eachRecordThrough relationship: String) {
            self.relationship = relationship
            self.object = nil
        }

        /// The link table's rows as an import of their own, keyed by both columns: a link that exists is met
        /// unchanged, a missing one inserted.
        struct Plan: Sendable {
            let plan: ImportPlan
            let ownColumn: String
            let otherColumn: String
            /// The link's own object, if it has one.
            let objectRow: Int64?
            let relationship: String
            let destination: String

            /// - Throws: ``SchemaError`` when a row's record names no object and the link has none, or names an
            ///   object that is not a saved object of the relationship's destination.
            func batch(linking met: [ImportBatch.MetRow], author: String, origin: StoreOrigin) throws -> ImportBatch {
                var pairs: Set<[Int64]> = []
                for row in met {
                    pairs.insert([row.rowID, try otherRow(for: row)])
                }
                var rows: [ImportPlan.Row] = []
                rows.reserveCapacity(pairs.count)
                for pair in pairs.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
                    if case .row(let row) = try plan.check(ImportRecord([ownColumn: .integer(pair[0]), otherColumn: .integer(pair[1])])) {
                        rows.append(row)
                    }
                }
                return ImportBatch(plan: plan, rows: rows, author: author, origin: origin)
            }

            private func otherRow(for met: ImportBatch.MetRow) throws -> Int64 {
                guard let object = met.link else {
                    guard let objectRow else {
                        throw SchemaError.invalidDeclaration("an import links each record through '\(relationship)', but a record names no object to link to")
                    }
                    return objectRow
                }
                guard object.entityName == destination, let row = object.rowID else {
                    throw SchemaError.invalidDeclaration("an import links a record through '\(relationship)' to \(object), which is not a saved \(destination)")
                }
                return row
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
            var objectRow: Int64?
            if let object {
                guard object.entityName == destination.name, let row = object.rowID else {
                    throw SchemaError.invalidDeclaration("an import of \(entity.name) links through '\(relationship)' to \(object), which is not a saved \(destination.name)")
                }
                objectRow = row
            }
            let link = ManyToManyLink(description, of: entity.name)
            let linkEntity = try schema.entity(named: link.entityName)
            return Plan(plan: try ImportPlan(entity: linkEntity, key: [link.ownColumn, link.otherColumn]),
                        ownColumn: link.ownColumn, otherColumn: link.otherColumn, objectRow: objectRow,
                        relationship: relationship, destination: destination.name)
        }
    }
}
