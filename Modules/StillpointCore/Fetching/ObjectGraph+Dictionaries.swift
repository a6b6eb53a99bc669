import Foundation

extension ObjectGraph {
    /// Rows of chosen attributes and aggregates, computed by the store from its saved state.
    func fetchDictionaries(_ request: FetchRequest) throws -> [[String: AttributeValue]] {
        let columns = try DictionaryColumn.columns(of: request)
        var rows: [[String: AttributeValue]] = []
        try withReader { reader in
            try reader.forEachDictionaryRow(request, columns: columns, streaming: false) { values in
                var row: [String: AttributeValue] = [:]
                for (column, value) in zip(columns, values) { row[column.key] = value }
                rows.append(row)
            }
        }
        return rows
    }

    /// Streams the rows of a dictionary fetch, each as values in the order of the request's properties.
    func forEachRow(_ request: FetchRequest, _ body: (ContiguousArray<AttributeValue>) throws -> Void) throws {
        let columns = try DictionaryColumn.columns(of: request)
        try withReader { reader in try reader.forEachDictionaryRow(request, columns: columns, streaming: true, body) }
    }
}
