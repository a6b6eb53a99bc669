import Foundation
import PracticeLog
import StillpointCore
import StillpointStatistics
import StillpointManifest

/// The batch job: one report per practitioner of a store, in id order, from one scan of every session in the
/// order of the `(practitioner, start)` index, each handed on as soon as its turn comes. Only one practitioner's
/// digest is in memory at a time, and the scan streams (``ObjectContext/scanRows(_:attributes:_:)``: on PostgreSQL
/// a cursor read 2,000 rows per `FETCH`), so memory does not grow with the number of practitioners. The rows are
/// read in place: no value or string is made per session.
///
/// The scan follows the index (practitioners by row id), which needs no sort: ordering by the practitioners' ids
/// instead made the database look up and sort every session first (on PostgreSQL most of the job's time). When
/// practitioners were added in the order of their ids (a bulk load), the two orders agree and each report is handed
/// on as it is made; otherwise a report made before its turn waits for it (reports only, never digests).
///
/// Every report reads one snapshot of the store. Each practitioner's statistics run with the context scoped to that
/// practitioner (``FetchScope/practitioner(_:)``, as ``ReportRunner`` scopes one practitioner's), so a statistic
/// that reads the store rather than the digest counts their sessions only.
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
        // The practitioner's row id: the relationship's own column, which leads the (practitioner, start) index.
        let practitionerColumn = Session.practitioner.name
        try await container.newBackgroundContext(name: "all practitioners").perform { context in
            try context.withPinnedSnapshot {
                let token = try context.historyToken()
                var builder = SessionDigestBuilder()
                // One empty digest serves every practitioner without a session.
                let noSessions = builder.build(token: token)
                var turns = Turns(try practitioners(in: context))
                var current: Int64?
                let sessions = FetchRequest(Session.self, sortedBy: [.ascending(practitionerColumn), .ascending(Session.start.name)])
                func made(_ practitioner: Turns.Practitioner, _ digest: SessionDigest, _ context: isolated ObjectContext) throws {
                    try turns.made(practitioner, try report(of: practitioner.rowID, entries, environment, digest, context), each)
                }
                try context.scanRows(sessions, attributes: [practitionerColumn] + SessionDigest.attributes) { row in
                    // A session of nobody (written by another program without a practitioner) is in no report.
                    guard let rowID = row.integer(0) else { return }
                    if let current, current != rowID {
                        let digest = builder.build(token: token)
                        if let practitioner = turns.practitioner(rowID: current) { try made(practitioner, digest, context) }
                    }
                    if current != rowID {
                        // The practitioners between the last one read and this one have no session.
                        for practitioner in turns.withoutSessions(before: rowID) { try made(practitioner, noSessions, context) }
                    }
                    current = rowID
                    try builder.append(row, columnsFrom: 1)
                }
                if let current, let practitioner = turns.practitioner(rowID: current) {
                    try made(practitioner, builder.build(token: token), context)
                }
                for practitioner in turns.withoutSessions(before: .max) { try made(practitioner, noSessions, context) }
            }
        }
    }

    /// The practitioners' ids and row ids, in the order of their ids (the store's own order of the id column).
    private static func practitioners(in context: isolated ObjectContext) throws -> [(id: String, rowID: Int64)] {
        var request = FetchRequest(Practitioner.self, sortedBy: [.ascending(Practitioner.id.name)])
        request.includesPendingChanges = false
        let rowIDs = try context.fetchObjectIDs(request).compactMap(\.rowID)
        request.properties = [.attribute(Practitioner.id.name)]
        let ids = try context.fetchDictionaries(request).compactMap { row -> String? in
            if case .string(let id)? = row[Practitioner.id.name] { id } else { nil }
        }
        // Two reads of one pinned snapshot in the order of a unique column: they agree, row for row.
        return Array(zip(ids, rowIDs)).map { (id: $0, rowID: $1) }
    }

    /// Whose report comes next: reports are made in row-id order (the scan's) and handed on in id order.
    private struct Turns {
        struct Practitioner {
            let id: String
            let rowID: Int64
            /// Their place in id order.
            let turn: Int
        }

        /// By row id, the scan's order.
        private let byRowID: [Practitioner]
        private var nextInRowIDOrder = 0
        private var nextTurn = 0
        /// Reports made before their turn, by turn.
        private var waiting: [Int: (String, Report)] = [:]

        init(_ inIDOrder: [(id: String, rowID: Int64)]) {
            byRowID = inIDOrder.enumerated().map { Practitioner(id: $1.id, rowID: $1.rowID, turn: $0) }.sorted { $0.rowID < $1.rowID }
        }

        /// The practitioner of `rowID`, once, as the scan meets them; `nil` for a row id that is no practitioner's.
        mutating func practitioner(rowID: Int64) -> Practitioner? {
            guard nextInRowIDOrder < byRowID.count, byRowID[nextInRowIDOrder].rowID == rowID else { return nil }
            defer { nextInRowIDOrder += 1 }
            return byRowID[nextInRowIDOrder]
        }

        /// The practitioners the scan passed over before reaching `rowID`: they have no session.
        mutating func withoutSessions(before rowID: Int64) -> [Practitioner] {
            var passed: [Practitioner] = []
            while nextInRowIDOrder < byRowID.count, byRowID[nextInRowIDOrder].rowID < rowID {
                passed.append(byRowID[nextInRowIDOrder])
                nextInRowIDOrder += 1
            }
            return passed
        }

        /// Hands on `report` if it is its practitioner's turn (and then every waiting report whose turn follows),
        /// else keeps it until then.
        mutating func made(_ practitioner: Practitioner, _ report: Report, _ each: (String, Report) throws -> Void) throws {
            guard practitioner.turn == nextTurn else {
                waiting[practitioner.turn] = (practitioner.id, report)
                return
            }
            try each(practitioner.id, report)
            nextTurn += 1
            while let (id, next) = waiting.removeValue(forKey: nextTurn) {
                try each(id, next)
                nextTurn += 1
            }
        }
    }

    /// One practitioner's report from their digest, with the context scoped to them: each statistic computed in
    /// turn, a failure in its entry.
    private static func report(of practitioner: Int64, _ entries: [PreparedEntry], _ environment: ReportEnvironment,
                               _ digest: SessionDigest, _ context: isolated ObjectContext) throws -> Report {
        context.setScope(try .practitioner(practitioner))
        defer { context.setScope(nil) }
        return Report(asOf: environment.asOf, timeZone: environment.timeZone, entries: entries.map { entry in
            let description = entry.statistic.description
            let outcome: ReportOutcome
            do {
                outcome = .finished(try entry.prepared.compute(digest: entry.prepared.readsDigest ? digest : nil, context: context))
            } catch {
                outcome = .failed(message: ReportRunner.message(for: error))
            }
            return ReportEntry(id: entry.id, name: entry.name, title: description.name, presentation: description.presentation, outcome: outcome)
        })
    }
}
