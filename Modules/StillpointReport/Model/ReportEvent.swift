/// What a running report tells the screen, as each statistic moves on: the live view fills in from these.
public enum ReportEvent: Sendable, Hashable {
    /// The entries of the manifest, all waiting.
    case planned([ReportEntry])
    /// The entry at `index` changed.
    case updated(index: Int, ReportOutcome)
    /// Everything finished (or was cancelled).
    case completed(Report)
}
