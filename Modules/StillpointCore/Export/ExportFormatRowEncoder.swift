/// Writes rows through a format's ``ExportFormat/appendRow(_:columns:to:)``: each row's values are made, then
/// the format's text appended as UTF-8. For formats without a byte encoder of their own.
struct ExportFormatRowEncoder: ExportRowEncoder {
    let format: any ExportFormat
    let columns: [String]
    /// Reused from row to row.
    private var values: [AttributeValue] = []
    private var text = ""

    init(format: any ExportFormat, columns: [String]) {
        self.format = format
        self.columns = columns
    }

    mutating func append<Row: ExportRow>(_ row: Row, to buffer: inout [UInt8]) {
        values.removeAll(keepingCapacity: true)
        for index in 0..<row.count {
            values.append(row.value(at: index))
        }
        text.removeAll(keepingCapacity: true)
        format.appendRow(values, columns: columns, to: &text)
        buffer.append(contentsOf: text.utf8)
    }
}
