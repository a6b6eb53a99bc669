import Foundation

extension ObjectGraph {
    /// The store side of ``ObjectContext/scanRows(of:attributes:rowIDs:_:)``.
    func scanRows(of entity: EntityDescription, attributes: [String], rowIDs: [Int64]?,
                  _ body: (borrowing ScannedRow) throws -> Void) throws {
        for name in attributes { _ = try entity.attribute(position: name) }
        if let rowIDs, rowIDs.isEmpty { return }
        try withReader { reader in try reader.scanRows(of: entity, attributes: attributes, rowIDs: rowIDs, body) }
    }

    /// The store side of a scoped ``ObjectContext/scanRows(of:attributes:rowIDs:_:)`` and of
    /// ``ObjectContext/scanRows(_:attributes:_:)``: the rows `request` matches, in its order.
    func scanRows(_ request: FetchRequest, attributes: [String], streaming: Bool,
                  _ body: (borrowing ScannedRow) throws -> Void) throws {
        for name in attributes { _ = try request.entity.attribute(position: name) }
        try withReader { reader in try reader.scanRows(request, attributes: attributes, streaming: streaming, body) }
    }

    /// The change sets after `token` in the state this graph reads, complete or an error.
    func history(after token: HistoryToken) throws -> ChangeHistory {
        let path = store.location.displayPath
        return try withReader { reader in try reader.completeHistory(after: token.sequence, path: path) }
    }

    /// The last change-log sequence in the state this graph reads.
    func historyToken() throws -> HistoryToken {
        HistoryToken(sequence: try withReader { reader in try reader.lastHistorySequence() })
    }
}
