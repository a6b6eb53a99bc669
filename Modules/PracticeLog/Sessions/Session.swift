import Foundation
import StillpointCore

/// One practice session: the entity every statistic reads.
///
/// ```swift
/// let session = context.insert(Session.self)
/// session[Session.start] = start
/// session[Session.duration] = 20 * 60
/// session[Session.kind] = "yoga"
/// session[Session.key] = "manual-\(start.timeIntervalSince1970)"
/// ```
public enum Session: Entity {
    /// The instant the session started.
    public static let start = Attribute<Date>("start")
    /// How long it lasted, in seconds.
    public static let duration = Attribute<Double>("duration")
    /// `meditation`, `yoga`, ... (lowercase, snake_case).
    public static let kind = Attribute<String>("kind", default: "meditation")
    /// Where it came from: `insight_timer`, an Apple Health source name, `csv`, `demo`, ...
    public static let source = Attribute<String>("source", default: "manual")
    /// The IANA time zone it was lived in, where known.
    public static let timeZone = Attribute<String?>("timeZone")
    public static let note = Attribute<String?>("note")
    /// A key that makes re-imports idempotent: the same session imported twice has the same key.
    public static let key = Attribute<String>("key")
    /// The ``ImportRun`` that wrote the session last; `nil` for sessions no import wrote (the demo history).
    /// Its column holds the run's row id, which imports write directly.
    public static let importRun = ToOne<ImportRun>("importRun", inverse: "sessions")

    public static let entity = EntityDescription(
        "Session",
        attributes: [start, duration, kind, source, timeZone, note, key],
        relationships: [importRun],
        indexes: [IndexDescription([start]), IndexDescription([kind]), IndexDescription([duration]),
                  IndexDescription([key], isUnique: true)])

    /// The schema of a practice log store: the sessions and the imports that wrote them.
    public static let schema: Schema = {
        do {
            return try Schema([Session.self, ImportRun.self])
        } catch {
            preconditionFailure("the session schema is invalid: \(error)") // swiftlint:disable:this runtime_trap: a constant of this module, opened by every test
        }
    }()
}
