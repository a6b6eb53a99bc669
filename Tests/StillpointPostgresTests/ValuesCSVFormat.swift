import StillpointCore

/// CSV through the public row API only: an export with it takes the path of formats without a byte encoder,
/// where each row's values are made.
struct ValuesCSVFormat: ExportFormat {
    static let identifier = "values_csv"

    func header(columns: [String]) -> String? { CSVExportFormat().header(columns: columns) }

    func appendRow(_ values: [AttributeValue], columns: [String], to output: inout String) {
        CSVExportFormat().appendRow(values, columns: columns, to: &output)
    }
}
