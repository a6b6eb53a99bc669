extension StoreReader {
    /// Any store's scan: its objects' rows, with the attributes asked for picked out. SQLite's reader scans in
    /// place instead.
    package func scanRows(of entity: EntityDescription, attributes: [String], rowIDs: [Int64]?,
                  _ body: (borrowing ScannedRow) throws -> Void) throws {
        let positions = try attributes.map { name throws(SchemaError) in try entity.position(of: name) }
        func pick(_ rowID: Int64, _ version: Int64, _ values: ContiguousArray<AttributeValue>) throws {
            try body(ScannedRow(rowID: rowID, values: ContiguousArray(positions.map { values[$0] })))
        }
        if let rowIDs {
            try forEachObject(of: entity, rowIDs: rowIDs, pick)
        } else {
            try forEachObject(FetchRequest(entity), limit: nil, offset: nil, streaming: true, pick)
        }
    }

    /// The rows of part of a table, read whole where the store can (see ``scanRows(_:attributes:streaming:_:)``).
    package func scanRows(_ request: FetchRequest, attributes: [String], _ body: (borrowing ScannedRow) throws -> Void) throws {
        try scanRows(request, attributes: attributes, streaming: false, body)
    }
}
