import PracticeLog
import StillpointCore
import StillpointStatistics

/// `by_import`: the count and time of the qualifying sessions per import run, read through each session's runs in
/// one grouped SQL fetch: `{"run 1: Insight Timer.csv": {count, time}, ...}`, runs in the order they were made. A
/// session read by several runs counts once, under the first run that read it and is still in the store, so the
/// entries add up to the total. Sessions no run read (the demo history, sessions made by hand) count under
/// `not imported`, last: every run's entry starts with `run N: `, so no file name can take that name.
///
/// ```yaml
/// - id: by_import
///   parameters: {kinds: [meditation]}
/// ```
public struct ByImport: Statistic {
    public let id = "by_import"
    /// The name of the sessions no import read: not of the form `run N: file`, which every run's name is.
    static let notImported = "not imported"

    /// `run 3: log.csv`: a run's entry, by its number (as `stillpoint imports` lists it) and its file.
    static func name(ofRun id: Int64, file: String) -> String {
        "run \(id): \(file)"
    }

    public init() {}

    public var description: StatisticDescription {
        StatisticDescription(
            name: "By import",
            summary: "The number and total time of the qualifying sessions for each import run (its number and file), in the order of the runs; a session read by several runs counts under the first, and sessions no import read count as not imported, last.",
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
                        StatisticField("run 1: Insight Timer.csv", SessionTally(count: 2, time: 1_800).value),
                        StatisticField("run 2: export.zip", SessionTally(count: 1, time: 2_700).value),
                        StatisticField("not imported", SessionTally(count: 1, time: 900).value),
                    ])),
                StatisticExample(
                    "only yoga",
                    sessions: [.init("2024-03-13T07:00:00Z", minutes: 20, importedFrom: "Insight Timer.csv"),
                               .init("2024-03-14T18:00:00Z", minutes: 45, kind: "yoga", importedFrom: "export.zip")],
                    parameters: ["as_of": "2024-03-15T12:00:00Z", "kinds": ["yoga"]],
                    expected: .record([StatisticField("run 2: export.zip", SessionTally(count: 1, time: 2_700).value)])),
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
        // The sessions and their links to runs: a run's file never changes, and removing a run removes its links
        // (ImportRuns.remove), so a run that starts or ends runs nothing again.
        return PreparedStatistic(entities: [Session.entity.name, ImportRun.sessionLinksEntityName]) { context in
            var request = filter.request()
            let run = "\(Session.importRuns.name).@min._id"
            request.properties = [.attribute(run), .count(as: "count"), .aggregate(.sum, of: Session.duration.name, as: "time")]
            request.groupBy = [run]
            var tallies: [Int64: SessionTally] = [:]
            var notImported: SessionTally?
            for row in try context.fetchDictionaries(request) {
                var tally = SessionTally()
                tally.count = Int(exactly: (row["count"]?.numericValue ?? 0).rounded()) ?? 0
                tally.time = row["time"]?.numericValue ?? 0
                if case .integer(let id)? = row[run] { tallies[id] = tally } else { notImported = tally }
            }
            var files: [Int64: String] = [:]
            if !tallies.isEmpty {
                let runs = FetchRequest(ImportRun.self, predicate: try FetchPredicate("_id IN %@", tallies.keys.sorted()))
                for object in try context.fetch(runs) {
                    if let id = object.objectID.rowID { files[id] = object[ImportRun.file] }
                }
            }
            let fields = tallies.sorted { $0.key < $1.key }.map { StatisticField(Self.name(ofRun: $0.key, file: files[$0.key] ?? ""), $0.value.value) }
                + (notImported.map { [StatisticField(Self.notImported, $0.value)] } ?? [])
            return StatisticResult(.record(fields))
        }
    }
}
