import Foundation
import StillpointManifest
import StillpointStatistics

/// The report as a stable JSON document, for scripts and other tools; `docs/json-report.md` documents it.
///
/// Keys come in a fixed order and the output is pretty-printed, so two reports diff line by line.
///
/// ```swift
/// print(JSONReportRenderer().render(report))
/// // {
/// //   "as_of": "2024-03-15T12:00:00Z",
/// //   "time_zone": "UTC",
/// //   "statistics": [
/// //     {"id": "total_time", "name": "total_time", "status": "ok", "value": 5400, "unit": "seconds", "notes": []}
/// // ...
/// ```
public struct JSONReportRenderer: ReportRenderer {
    public let format = ReportFormat.json

    public init() {}

    public func render(_ report: Report) -> String {
        document(report).formatted() + "\n"
    }

    /// The document as a value, for callers that embed it in a larger one.
    public func document(_ report: Report) -> OrderedJSON {
        .object([
            OrderedJSON.Member("as_of", .string(Self.timestamp(report.asOf, in: report.timeZone))),
            OrderedJSON.Member("time_zone", .string(ZoneName.of(report.timeZone))),
        ] + (report.notice.map { [OrderedJSON.Member("notice", .string($0))] } ?? []) + [
            OrderedJSON.Member("statistics", .array(report.entries.map(statistic))),
        ])
    }

    /// One entry: `id`, `name`, `status`, then `error` when it failed, then `value`, `unit` and `notes`.
    private func statistic(_ entry: ReportEntry) -> OrderedJSON {
        var members = [
            OrderedJSON.Member("id", .string(entry.id)),
            OrderedJSON.Member("name", .string(entry.name)),
            OrderedJSON.Member("status", .string(MachineText.status(entry.outcome))),
        ]
        if case .failed(let message) = entry.outcome {
            members.append(.init("error", .string(message)))
        }
        let result: StatisticResult? = if case .finished(let result) = entry.outcome { result } else { nil }
        let unit = result.flatMap { MachineText.unit($0.value) }
        members += [
            .init("value", result.map { MachineText.json($0.value) } ?? .null),
            .init("unit", unit.map { .string($0.rawValue) } ?? .null),
            .init("notes", .array((result?.notes ?? []).map(OrderedJSON.string))),
        ]
        return .object(members)
    }

    /// ISO 8601 with the report zone's offset (`2024-03-15T13:00:00+01:00`, `Z` in UTC), whole seconds.
    static func timestamp(_ date: Date, in timeZone: TimeZone) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        formatter.timeZone = timeZone
        return formatter.string(from: date)
    }
}
