/// Where a scan of a libpq result stands, read through the pointer a ``ScannedRow`` carries: the result, the row
/// the scan's body is on, and how each column reads (column 0 is the `_id`).
struct PostgresScanPosition {
    let result: OpaquePointer
    var row: Int32
    let columns: UnsafePointer<PostgresScanColumn>
}
