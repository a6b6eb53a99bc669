/// Writes the rows of one export; it may keep state between rows (a cached date, say).
///
/// Generic over the row, so that the call a store's cursor makes for each of its rows is specialized for that
/// store's row type: no dynamic dispatch per row or per field.
protocol ExportRowEncoder {
    /// Appends one row, with its line ending.
    mutating func append<Row: ExportRow>(_ row: Row, to buffer: inout [UInt8])
}
