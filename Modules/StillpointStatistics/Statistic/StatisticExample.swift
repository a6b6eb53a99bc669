import Foundation

/// A worked example of a statistic: sessions, parameters, and the value expected from them.
///
/// ```swift
/// StatisticExample(
///     "two sessions a day apart",
///     sessions: [.init("2024-03-14T08:00:00Z", minutes: 20), .init("2024-03-15T08:00:00Z", minutes: 10)],
///     parameters: ["as_of": "2024-03-15T12:00:00Z", "time_zone": "UTC"],
///     expected: .quantity(2, .days))
/// ```
public struct StatisticExample: Sendable {
    public var summary: String
    public var sessions: [ExampleSession]
    /// Parameters as a manifest would give them.
    public var parameters: [String: ParameterValue]
    public var expected: StatisticValue

    public init(_ summary: String, sessions: [ExampleSession], parameters: [String: ParameterValue] = [:], expected: StatisticValue) {
        self.summary = summary
        self.sessions = sessions
        self.parameters = parameters
        self.expected = expected
    }
}

/// A session of an example: its start as ISO 8601 text with an offset, its length, kind and zone.
public struct ExampleSession: Sendable, Hashable {
    public var start: Date
    public var duration: TimeInterval
    public var kind: String
    public var source: String
    public var timeZone: String?
    /// The file of the import that read the session, if one did: its ``ImportRun``, one per file, numbered from 1
    /// in the order the examples first name them.
    public var importedFrom: String?
    /// The start as written, when it is not ISO 8601 with an offset (``start`` is then the distant past): the
    /// module's conformance check names it (`StatisticConformance`), and running the example fails.
    public var unreadableStart: String?

    public init(_ start: String, minutes: Double, kind: String = "meditation", source: String = "example", timeZone: String? = nil,
                importedFrom: String? = nil) {
        let instant = try? Date(start, strategy: .iso8601)
        self.unreadableStart = instant == nil ? start : nil
        self.start = instant ?? .distantPast
        self.duration = minutes * 60
        self.kind = kind
        self.source = source
        self.timeZone = timeZone
        self.importedFrom = importedFrom
    }
}
