/// The encoder an export writes its rows with, chosen once per export: a built-in format's byte encoder, or a
/// format's own ``ExportFormat/appendRow(_:columns:to:)``.
///
/// An enumeration rather than `any ExportRowEncoder`, so that a store's cursor calls one concrete, generic
/// ``append(_:to:)`` that the compiler specializes for the store's row type; a generic requirement called through
/// an existential would run unspecialized for every row.
enum ExportEncoder: ExportRowEncoder {
    case csv(CSVRowEncoder)
    case jsonLines(JSONLinesRowEncoder)
    case format(ExportFormatRowEncoder)

    /// The format's byte encoder when it has one, otherwise its `appendRow` over each row's values.
    init(_ format: any ExportFormat, columns: [String]) {
        if let encoding = format as? any ExportRowEncoding {
            self = encoding.makeRowEncoder(columns: columns)
        } else {
            self = .format(ExportFormatRowEncoder(format: format, columns: columns))
        }
    }

    mutating func append<Row: ExportRow>(_ row: Row, to buffer: inout [UInt8]) {
        // Consumed and put back, so that the encoder is changed in place rather than copied out of the case.
        switch consume self {
        case .csv(var encoder):
            encoder.append(row, to: &buffer)
            self = .csv(encoder)
        case .jsonLines(var encoder):
            encoder.append(row, to: &buffer)
            self = .jsonLines(encoder)
        case .format(var encoder):
            encoder.append(row, to: &buffer)
            self = .format(encoder)
        }
    }
}
