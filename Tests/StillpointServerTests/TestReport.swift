import Foundation

/// What the tests read of a JSON report and of an event stream of them.
///
/// ```swift
/// #expect(TestReport.sessionCount(answer.body) == 2)
/// #expect(TestReport.events(stream.chunkedBody.body).last.flatMap(TestReport.sessionCount) == 1)
/// ```
enum TestReport {
    /// A JSON report's document, or `nil` when the bytes are no report. Statistics' values are of many shapes, so
    /// the document is read loosely.
    private static func document(_ json: Data) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: json)) as? [String: Any]
    }

    /// The `session_count` statistic of a JSON report, or `nil` when the bytes are no report.
    static func sessionCount(_ json: Data) -> Int? {
        let statistics = document(json)?["statistics"] as? [[String: Any]]
        return (statistics?.first { $0["id"] as? String == "session_count" }?["value"] as? NSNumber)?.intValue
    }

    static func sessionCount(_ json: String) -> Int? {
        sessionCount(Data(json.utf8))
    }

    /// Whether a JSON report says it is stale (its `"stale": true`).
    static func isStale(_ json: Data) -> Bool {
        document(json)?["stale"] as? Bool == true
    }

    /// The data of each event of an event stream's text, its `data:` lines joined.
    static func events(_ text: String) -> [String] {
        text.components(separatedBy: "\n\n").compactMap { event in
            let lines = event.split(separator: "\n").filter { $0.hasPrefix("data:") }
                .map { line in line.dropFirst(5).hasPrefix(" ") ? line.dropFirst(6) : line.dropFirst(5) }
            return lines.isEmpty ? nil : lines.joined(separator: "\n")
        }
    }
}
