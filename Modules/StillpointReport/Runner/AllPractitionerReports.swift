import Foundation
import PracticeLog
import StillpointCore
import StillpointStatistics
import StillpointManifest

/// The batch job: one report per practitioner of a store, in id order, from one ordered scan of every session by
/// (practitioner, start), each handed on as soon as it is made. Only one practitioner's digest is in memory at a
/// time, so memory does not grow with the number of practitioners.
///
/// Every report reads one snapshot of the store. A statistic that reads the store rather than the digest fails
/// with ``PractitionerReportError/readsTheStore(_:)`` (one query per practitioner would undo the single scan);
/// ``PractitionerReports`` runs such a statistic in a context scoped to the practitioner instead.
///
/// ```swift
/// try await AllPractitionerReports.run(entries, environment: environment, in: container) { id, report in
///     print(id, report.entries.count)
/// }
/// ```
public enum AllPractitionerReports {
    /// Makes the report of every practitioner, in the order of their ids, and calls `each` with each in turn
    /// (inside the read, on the thread of a background context: keep it short, such as writing a line).
    public static func run(_ entries: [PreparedEntry], environment: ReportEnvironment, in container: PersistentContainer,
                           each: @escaping @Sendable (String, Report) throws -> Void) async throws {
        let practitionerID = "\(Session.practitioner.name).\(Practitioner.id.name)"
        try await container.newBackgroundContext(name: "all practitioners").perform { context in
            try context.withPinnedSnapshot {
                let token = try context.historyToken()
                var builder = SessionDigestBuilder()
                // One empty digest serves every practitioner without a session.
                let noSessions = builder.build(token: token)
                // The ids in the order the scan meets them: the store's own order of the same column.
                var ids = FetchRequest(Practitioner.self)
                ids.properties = [.attribute(Practitioner.id.name)]
                ids.sortKeys = [.ascending(Practitioner.id.name)]
                var pending = try context.fetchDictionaries(ids).compactMap { row -> String? in
                    if case .string(let id)? = row[Practitioner.id.name] { id } else { nil }
                }[...]
                var current: String?
                var sessions = FetchRequest(Session.self)
                sessions.properties = [.attribute(practitionerID)] + ["start", "duration", "kind", "source", "timeZone"].map(FetchProperty.attribute)
                sessions.sortKeys = [.ascending(practitionerID), .ascending(Session.start.name)]
                try context.forEachRow(sessions) { values in
                    // A session of nobody (written by another program without a practitioner) is in no report.
                    guard case .string(let id) = values[0] else { return }
                    if let current, current != id {
                        try emit(current, builder.build(token: token), after: &pending, noSessions: noSessions, entries, environment, each, context)
                    }
                    current = id
                    builder.append(start: values[1].numericValue ?? .nan, duration: values[2].numericValue ?? .nan,
                                   kind: values[3].text, source: values[4].text, timeZone: values[5].text)
                }
                if let current {
                    try emit(current, builder.build(token: token), after: &pending, noSessions: noSessions, entries, environment, each, context)
                }
                for id in pending {
                    try each(id, try report(entries, environment, noSessions, context))
                }
            }
        }
    }

    /// Hands on the report of `id` from `digest`, after the (empty) reports of the practitioners without a
    /// session that come before `id` in `pending`.
    private static func emit(_ id: String, _ digest: SessionDigest, after pending: inout ArraySlice<String>, noSessions: SessionDigest,
                             _ entries: [PreparedEntry], _ environment: ReportEnvironment, _ each: (String, Report) throws -> Void,
                             _ context: isolated ObjectContext) throws {
        while let next = pending.first, next != id {
            pending.removeFirst()
            try each(next, try report(entries, environment, noSessions, context))
        }
        if pending.first == id { pending.removeFirst() }
        try each(id, try report(entries, environment, digest, context))
    }

    /// One practitioner's report from their digest: each statistic computed in turn, a failure in its entry.
    private static func report(_ entries: [PreparedEntry], _ environment: ReportEnvironment, _ digest: SessionDigest,
                               _ context: isolated ObjectContext) throws -> Report {
        Report(asOf: environment.asOf, timeZone: environment.timeZone, entries: entries.map { entry in
            let description = entry.statistic.description
            let outcome: ReportOutcome
            if !entry.prepared.readsDigest {
                outcome = .failed(message: ReportRunner.message(for: PractitionerReportError.readsTheStore(entry.id)))
            } else {
                do {
                    outcome = .finished(try entry.prepared.compute(digest: digest, context: context))
                } catch {
                    outcome = .failed(message: ReportRunner.message(for: error))
                }
            }
            return ReportEntry(id: entry.id, name: entry.name, title: description.name, presentation: description.presentation, outcome: outcome)
        })
    }
}

private extension AttributeValue {
    /// The text of a string value; `nil` for anything else.
    var text: String? {
        if case .string(let text) = self { text } else { nil }
    }
}
