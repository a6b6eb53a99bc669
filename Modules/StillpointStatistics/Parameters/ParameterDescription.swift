/// One parameter of a statistic: its name, what it takes, its default and its meaning.
public struct ParameterDescription: Sendable, Hashable {
    public var name: String
    /// What the value looks like, e.g. "duration", "list of weekdays", "one of: cap, flag, drop".
    public var type: String
    /// The default as a manifest would write it, or `nil` when there is none.
    public var defaultValue: String?
    public var meaning: String

    public init(_ name: String, type: String, default defaultValue: String?, meaning: String) {
        self.name = name
        self.type = type
        self.defaultValue = defaultValue
        self.meaning = meaning
    }
}

extension ParameterDescription {
    public static let timeZone = ParameterDescription(
        "time_zone", type: "IANA time zone", default: "the manifest's time_zone, else UTC",
        meaning: "The zone of days for sessions that have no zone of their own, and of today.")
    public static let dayStartsAt = ParameterDescription(
        "day_starts_at", type: "duration", default: "0",
        meaning: "When a day begins after local midnight, e.g. 4h: a session at 01:00 then counts for the day before. "
            + "More than -24h and less than 24h; negative starts the day the evening before (-2h: 22:00).")
    public static let asOf = ParameterDescription(
        "as_of", type: "ISO 8601 instant", default: "now",
        meaning: "The instant the report is made at: today is its day, and sessions starting after it are ignored.")
    public static let kinds = ParameterDescription(
        "kinds", type: "list of kinds", default: "every kind",
        meaning: "Only sessions of these kinds count, e.g. [yoga, meditation].")
    public static let minimumDuration = ParameterDescription(
        "minimum_duration", type: "duration", default: "0 (any session longer than 0 s)",
        meaning: "Sessions shorter than this do not count; 0 or more.")
    public static let excludedWeekdays = ParameterDescription(
        "excluded_weekdays", type: "list of weekdays", default: "none",
        meaning: "Rest days: inside a running streak they count toward it, but they never start or break one.")
    public static let weekStartsOn = ParameterDescription(
        "week_starts_on", type: "weekday", default: "monday", meaning: "The first day of a calendar week.")
    public static let maximumDuration = ParameterDescription(
        "maximum_duration", type: "duration", default: "none",
        meaning: "Sessions longer than this are outliers (a timer left running), handled as `outliers` says.")
    public static let outliers = ParameterDescription(
        "outliers", type: "one of: cap, flag, drop", default: "cap",
        meaning: "What to do with sessions longer than maximum_duration: count them as maximum_duration, count them but say so, or leave them out.")

    /// The parameters every statistic over sessions takes.
    public static let sessionFilter: [ParameterDescription] = [.kinds, .minimumDuration, .timeZone, .dayStartsAt, .asOf]
}
