extension JSONReportRenderer {
    /// One practitioner's report as one line of a JSON Lines file (`report --all-practitioners --format jsonl`):
    /// the document of ``render(_:)`` with the member `practitioner` first.
    ///
    /// ```swift
    /// print(JSONReportRenderer().line(report, practitioner: "alice"))
    /// // {"practitioner":"alice","as_of":"2024-03-15T12:00:00Z","time_zone":"UTC","statistics":[...]}
    /// ```
    public func line(_ report: Report, practitioner: String) -> String {
        guard case .object(let members) = document(report) else { return document(report).line() }
        return OrderedJSON.object([OrderedJSON.Member("practitioner", .string(practitioner))] + members).line()
    }
}
