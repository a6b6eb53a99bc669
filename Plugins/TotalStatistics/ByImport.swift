import PracticeLog
import StillpointCore
import StillpointStatistics

/// `by_import`: the count and time of the qualifying sessions per file they were imported from, read through
/// each session's import run in one grouped SQL fetch: `{"Insight Timer.csv": {count, time}, ...}`, files in
/// alphabetical order and shown as they are named; sessions no import wrote (the demo history, sessions made by
/// hand) count under `not imported`, last.
///
/// ```yaml
/// - id: by_import
///   parameters: {kinds: [meditation]}
/// ```
public struct ByImport: Statistic {
    public let id = "by_import"
    /// The name of the sessions no import wrote.
    static let notImported = "not imported"

    public init() {}

    public var description: StatisticDescription {
        StatisticDescription(
            name: "By import",
            summary: "The number and total time of the qualifying sessions for each file they were imported from, in alphabetical order; sessions no import wrote count as not imported, last.",
            parameters: [.kinds, .minimumDuration, .asOf],
            examples: [
                StatisticExample(
                    "two exports and a session made by hand",
                    sessions: [.init("2024-03-13T07:00:00Z", minutes: 20, importedFrom: "Insight Timer.csv"),
                               .init("2024-03-14T07:00:00Z", minutes: 10, importedFrom: "Insight Timer.csv"),
                               .init("2024-03-14T18:00:00Z", minutes: 45, kind: "yoga", importedFrom: "export.zip"),
                               .init("2024-03-15T07:00:00Z", minutes: 15)],
                    parameters: ["as_of": "2024-03-15T12:00:00Z"],
                    expected: .record([
                        StatisticField("Insight Timer.csv", SessionTally(count: 2, time: 1_800).value),
                        StatisticField("export.zip", SessionTally(count: 1, time: 2_700).value),
                        StatisticField("not imported", SessionTally(count: 1, time: 900).value),
                    ])),
                StatisticExample(
                    "only yoga",
                    sessions: [.init("2024-03-13T07:00:00Z", minutes: 20, importedFrom: "Insight Timer.csv"),
                               .init("2024-03-14T18:00:00Z", minutes: 45, kind: "yoga", importedFrom: "export.zip")],
                    parameters: ["as_of": "2024-03-15T12:00:00Z", "kinds": ["yoga"]],
                    expected: .record([StatisticField("export.zip", SessionTally(count: 1, time: 2_700).value)])),
                StatisticExample(
                    "an empty log has no import",
                    sessions: [],
                    parameters: ["as_of": "2024-03-15T12:00:00Z"],
                    expected: .record([])),
            ],
            presentation: .byName)
    }

    public func prepare(_ parameters: StatisticParameters) throws -> PreparedStatistic {
        let filter = try SessionFilter(parameters)
        // Sessions alone: a run's file never changes, and sessions name their run.
        return PreparedStatistic(entities: [Session.entity.name]) { context in
            var request = filter.request()
            let file = "\(Session.importRun.name).\(ImportRun.file.name)"
            request.properties = [.attribute(file), .count(as: "count"), .aggregate(.sum, of: Session.duration.name, as: "time")]
            request.groupBy = [file]
            var tallies: [String: SessionTally] = [:]
            for row in try context.fetchDictionaries(request) {
                let name: String
                if case .string(let text)? = row[file] { name = text } else { name = Self.notImported }
                let count = row["count"]?.numericValue ?? 0
                tallies[name, default: SessionTally()].count += Int(exactly: count.rounded()) ?? 0
                tallies[name, default: SessionTally()].time += row["time"]?.numericValue ?? 0
            }
            let notImported = tallies.removeValue(forKey: Self.notImported)
            let fields = tallies.sorted { $0.key < $1.key }.map { StatisticField($0.key, $0.value.value) }
                + (notImported.map { [StatisticField(Self.notImported, $0.value)] } ?? [])
            return StatisticResult(.record(fields))
        }
    }
}
