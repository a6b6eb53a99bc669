import Foundation
import PracticeLog
import StillpointCore
import StillpointStatistics

extension Report {
    /// What a report must say when its store holds demo sessions (``DemoHistory``), or `nil` when it holds none.
    ///
    /// Sessions are counted as the report's statistics count them (``SessionFilter``, up to `asOf`): rows no
    /// statistic reads do not make a store of demo sessions look mixed. `scope` narrows the count to one
    /// practitioner's sessions, as a scoped container does (a server's container serves everyone).
    ///
    /// ```swift
    /// report.notice = try await Report.demoNotice(for: container, asOf: report.asOf)
    /// // "demo data: a generated history of 2,400 sessions, not yours; `stillpoint import` brings in your own"
    /// ```
    public static func demoNotice(for container: PersistentContainer, asOf: Date, scope: FetchScope? = nil) async throws -> String? {
        func sessions(_ comparison: String) throws -> FetchRequest {
            FetchRequest(Session.self, predicate: try FetchPredicate(
                "source \(comparison) %@ AND duration > 0 AND duration <= %@ AND start >= %@ AND start <= %@",
                DemoHistory.source, SessionFilter.longestSession, SessionFilter.earliestStart, asOf))
        }
        let (demoSessions, otherSessions) = (try sessions("=="), try sessions("!="))
        let (demo, others) = try await container.newBackgroundContext(name: "demo notice").perform { context in
            if let scope { context.setScope(scope) }
            let demo = try context.count(for: demoSessions)
            return (demo, demo == 0 ? 0 : try context.count(for: otherSessions))
        }
        guard demo > 0 else { return nil }
        guard others == 0 else {
            return "the store holds \(demo.formatted()) generated demo \(demo == 1 ? "session" : "sessions") (source \"\(DemoHistory.source)\") beside "
                + "\(others.formatted()) \(others == 1 ? "other" : "others")"
        }
        return "demo data: a generated history of \(demo.formatted()) \(demo == 1 ? "session" : "sessions"), not yours; "
            + "`stillpoint import` brings in your own"
    }
}
