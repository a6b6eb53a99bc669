import StillpointManifest

/// The `Content-Type` of a report in each built-in format, UTF-8 throughout.
enum ReportMediaType {
    static func of(_ format: ReportFormat) -> String {
        switch format {
        case .json: "application/json"
        case .html: "text/html; charset=utf-8"
        case .markdown: "text/markdown; charset=utf-8"
        case .csv: "text/csv; charset=utf-8"
        default: "text/plain; charset=utf-8"
        }
    }
}
