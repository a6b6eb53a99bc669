import CLibPQ
import StillpointCore

extension ScannedRowColumns {
    /// A libpq result's row read in place: numbers parsed from the text libpq holds, text lent as its bytes, so that
    /// a scan makes no `String` and no ``AttributeValue`` per row (three arrays and six strings a session before).
    static let postgres = ScannedRowColumns(
        integer: { position, column in
            guard let position = position.map(UnsafePointer<PostgresScanPosition>.init),
                  let bytes = bytes(position.pointee, column) else { return 0 }
            return PostgresNumberText.integer(bytes) ?? 0
        },
        isNull: { position, column in
            guard let position = position.map(UnsafePointer<PostgresScanPosition>.init) else { return true }
            return PQgetisnull(position.pointee.result, position.pointee.row, column) != 0
        },
        number: { position, column, value in
            guard let position = position.map(UnsafePointer<PostgresScanPosition>.init),
                  let bytes = bytes(position.pointee, column) else { return false }
            let number: Double?
            switch position.pointee.columns[Int(column)] {
            case .number: number = PostgresNumberText.double(bytes)
            case .bool: number = PostgresNumberText.bool(bytes) ? 1 : 0
            case .text, .other: number = nil
            }
            guard let number else { return false }
            value?.pointee = number
            return true
        },
        text: { position, column, text, count in
            guard let position = position.map(UnsafePointer<PostgresScanPosition>.init),
                  position.pointee.columns[Int(column)] == .text,
                  let bytes = bytes(position.pointee, column) else { return false }
            text?.pointee = UnsafeRawPointer(bytes.baseAddress)
            count?.pointee = bytes.count
            return true
        })

    /// The bytes of a column of the position's row as libpq holds them, `nil` for SQL `NULL`.
    private static func bytes(_ position: PostgresScanPosition, _ column: Int32) -> UnsafeBufferPointer<UInt8>? {
        guard PQgetisnull(position.result, position.row, column) == 0,
              let value = PQgetvalue(position.result, position.row, column) else { return nil }
        let count = Int(PQgetlength(position.result, position.row, column))
        return UnsafeBufferPointer(start: UnsafeRawPointer(value).assumingMemoryBound(to: UInt8.self), count: count)
    }
}

extension PostgresResult {
    /// Calls `body` with each row of a result of `SELECT _id, attributes...` read in place (``ScannedRowColumns/postgres``),
    /// its attributes read as `types`.
    ///
    /// ```swift
    /// try result.forEachScannedRow(types: [.date, .double]) { row in total += row.double(1) ?? 0 }
    /// ```
    func forEachScannedRow(types: [AttributeType], _ body: (borrowing ScannedRow) throws -> Void) throws {
        let columns = [PostgresScanColumn.number] + types.map(PostgresScanColumn.init)
        try columns.withUnsafeBufferPointer { columns in
            guard let kinds = columns.baseAddress else { return }
            var position = PostgresScanPosition(result: handle, row: 0, columns: kinds)
            for row in 0..<Int32(clamping: rowCount) {
                position.row = row
                try withUnsafePointer(to: position) { pointer in
                    try body(ScannedRow(statement: OpaquePointer(pointer), columns: .postgres))
                }
            }
        }
    }
}
