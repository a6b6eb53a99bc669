/// A format that writes rows as bytes straight from an export's cursor: the built-in ones. An
/// ``ExportOperation`` uses it when its format has it, and goes through ``ExportFormat/appendRow(_:columns:to:)``
/// otherwise.
protocol ExportRowEncoding: ExportFormat {
    /// An encoder for rows of `columns`, made once per export so that it can prepare what every row shares.
    func makeRowEncoder(columns: [String]) -> ExportEncoder
}
