/// The default manifest, built into the tool so that a report needs no file at all.
///
/// It is `Config/default.yaml`; a test keeps the two identical.
public enum DefaultManifest {
    public static let yaml = """
# The default report: every built-in statistic, from the overview to the details.
#
# Copy this file to make your own, then run `stillpoint report --config my.yaml`;
# `stillpoint validate my.yaml` lists every mistake in it at once, and
# `stillpoint statistics` lists the statistics with their parameters.
version: 1

# The store to read. A relative path is relative to this file.
# store: ~/.stillpoint/practice.sqlite

# The zone of "today", and of sessions that were imported without a zone of their own.
# Use an IANA name (Europe/Berlin, America/New_York) or `local` for this machine's zone.
time_zone: local

# When a day begins. With 4h, a session at 01:00 counts for the day before, which suits
# late-night practice. Every statistic uses it unless its own parameters say otherwise.
day_starts_at: 0

# The instant the report is made at: sessions starting later are ignored. Give an
# instant (2024-03-15T12:00:00Z) to reproduce a report exactly.
as_of: now

# Which sessions the report looks at. Dates are days in time_zone; `until` includes its day.
# filters:
#   from: 2024-01-01
#   until: 2024-12-31
#   kinds: [meditation, yoga]

statistics:
  # The overview.
  - id: session_count
  - id: total_time
  - id: average_session_time
    # A timer left running for hours distorts averages. Uncomment to cap such sessions
    # at 4 hours (or `flag` them, or `drop` them); the report says what it did.
    # parameters: {maximum_duration: 4h, outliers: cap}
  - id: median_session_time
  - id: longest_session
  - id: active_days

  # Streaks: runs of consecutive days (or weeks) with practice.
  - id: current_streak
    # parameters: {minimum_duration: 5m, excluded_weekdays: [sunday]}
  - id: longest_streak
  - id: best_streaks
    parameters: {count: 3}
  - id: weekly_streak
    parameters: {week_starts_on: monday}
  - id: days_since_last_session

  # How regular the practice is: Medito's consistency score, in percent.
  - id: consistency

  # When you practise.
  - id: sessions_by_weekday
  - id: sessions_by_hour
  # Each day with practice in the last 53 weeks: the HTML report draws it as a calendar.
  - id: daily_activity

  # What you practise, and how it changes over time.
  - id: by_kind
  - id: totals_by_period
    parameters: {period: month}   # or quarter, or year

output:
  formats: [text]   # any of: text, json, markdown, csv, html; --format overrides
  # One file per format, relative to this file: reports/practice.txt, reports/practice.json, ...
  # Without a path, the reports go to standard output; --output overrides.
  # path: reports/practice

"""
}
