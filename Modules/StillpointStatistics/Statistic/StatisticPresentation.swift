/// How reports written for people show a statistic's value: as a value of its own, or as a chart of a
/// known shape. Reporters draw by this and never by a statistic's id, so that a statistic from any module
/// gets the chart its value fits.
///
/// ```swift
/// StatisticDescription(name: "Sessions by hour", summary: "...", presentation: .byHour)
/// ```
public enum StatisticPresentation: String, Sendable, Hashable, CaseIterable {
    /// A number, a day, a text or a breakdown, shown as it is: a card in HTML, a line or a table in text.
    case value
    /// A record of `{count, time}` tallies keyed by weekday (`monday`, ...), in the week's order: bars per weekday.
    case byWeekday = "by_weekday"
    /// A record of `{count, time}` tallies keyed by hour, `"0"` to `"23"`: bars per hour, the keys read `07:00`.
    case byHour = "by_hour"
    /// A record of `{count, time}` tallies keyed by period, `2024-03`, `2024-Q1`, `2024`, or a week by its first
    /// day, `2024-03-04`, oldest first:
    /// time per period.
    case byPeriod = "by_period"
    /// A list of runs of days, each `{start, end, length}`: bars on a timeline.
    case runs
    /// A length in days of a run, shown beside the runs.
    case runLength = "run_length"
    /// The length in days of the run that goes on today, shown beside the runs and marked among them.
    case currentRunLength = "current_run_length"
    /// A record of `{count, time}` tallies keyed by day (`2024-03-15`), oldest first, only days with practice:
    /// a calendar of active days. Text shows its sums.
    case calendar
    /// A record of `{count, time}` tallies keyed by names as written (file names): the keys are shown as they are.
    case byName = "by_name"
}
