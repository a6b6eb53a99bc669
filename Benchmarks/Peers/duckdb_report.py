#!/usr/bin/env python3
"""The report suite's DuckDB peer: the default report's statistics in DuckDB SQL over the same sessions.

Usage: duckdb_report.py STORE.sqlite --time-zone ZONE --as-of EPOCH_SECONDS [--day-starts-at SECONDS]

Loads the `Session` rows of the SQLite store and its links to import runs into in-memory DuckDB tables (not
timed), then times the statistics as a DuckDB user who knows the engine would write them: the qualifying
sessions placed in their zones once (a temporary table, as Stillpoint's digest places them once), then one
query per shape of statistic, each computing every statistic of its shape in one pass:

- totals: count, total, average, median and longest, by kind, by source and by first import run (GROUPING SETS);
- days: the daily tallies, then active days, streaks (gaps and islands), days since the last session, the
  consistency score and the practice calendar from them;
- when: weekday and hour (GROUPING SETS);
- months: the totals of each month, months without practice included.

It prints one JSON object: {"load_seconds": ..., "seconds": ..., "values": {"session_count": [...], ...}}. The
values are flattened as the suite flattens Stillpoint's (quantities, day numbers since 1970-01-01, records field
by field, lists item by item), so that the suite checks that the peer computed the same numbers before it
compares times.

A session's day is the local date of (start - day_starts_at) in its own zone, or the report's zone when it has
none; qualifying sessions last more than 0 s and start no later than as_of.
"""
import argparse
import csv
import json
import os
import sqlite3
import sys
import tempfile
import time

try:
    import duckdb
except ImportError:
    print(json.dumps({"unavailable": "the Python module duckdb is not installed (pip install duckdb)"}))
    sys.exit(0)

# The practice calendar's length (`daily_activity`'s default, DailyActivity.defaultDays): 53 weeks.
CALENDAR_DAYS = 371


def copy_table(connection, source, name, columns, select):
    """Copies the rows of `select` into a new DuckDB table through a CSV file (the sqlite extension would need a
    download). `columns` maps each column to its DuckDB type."""
    with tempfile.NamedTemporaryFile("w", suffix=".csv", newline="", delete=False) as file:
        writer = csv.writer(file)
        writer.writerow(columns.keys())
        writer.writerows(source.execute(select))
        path = file.name
    try:
        types = ", ".join(f"'{column}': '{kind}'" for column, kind in columns.items())
        connection.execute(f"CREATE TABLE {name} AS SELECT * FROM read_csv(?, header = true, columns = {{{types}}})", [path])
    finally:
        os.unlink(path)


def load(connection, store):
    source = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    copy_table(connection, source, "session",
               {"id": "BIGINT", "start": "DOUBLE", "duration": "DOUBLE", "kind": "VARCHAR", "source": "VARCHAR",
                "zone": "VARCHAR"},
               'SELECT "_id", "start", "duration", "kind", "source", "timeZone" FROM "Session"')
    # A link's source is the import run, its target the session.
    copy_table(connection, source, "link", {"session": "BIGINT", "run": "BIGINT"},
               'SELECT "target", "source" FROM "_ImportRun_sessions"')
    source.close()


def queries(zone, as_of, day_starts_at):
    """The timed statements, in order: placing the sessions, then one query per shape (name, SQL)."""
    place = f"""
        CREATE OR REPLACE TEMP TABLE q AS
        SELECT *, date_diff('day', DATE '1970-01-01', date) AS day FROM (
            SELECT id, duration, kind, source, local, CAST(local - INTERVAL ({day_starts_at}) SECOND AS DATE) AS date
            FROM (SELECT id, duration, kind, source, timezone(coalesce(zone, '{zone}'), to_timestamp(start)) AS local
                  FROM session WHERE duration > 0 AND start <= {as_of}))"""
    today = f"""date_diff('day', DATE '1970-01-01',
                 CAST(timezone('{zone}', to_timestamp({as_of})) - INTERVAL ({day_starts_at}) SECOND AS DATE))"""
    totals = """
        SELECT GROUPING(kind) = 0 AS by_kind, GROUPING(source) = 0 AS by_source, GROUPING(run) = 0 AS by_run,
               kind, source, run, count(*), coalesce(sum(duration), 0), avg(duration), median(duration), max(duration)
        FROM q LEFT JOIN (SELECT session, min(run) AS run FROM link GROUP BY session) first ON first.session = q.id
        GROUP BY GROUPING SETS ((), (kind), (source), (run))
        ORDER BY by_kind, by_source, by_run, kind NULLS FIRST, source NULLS FIRST, run NULLS LAST"""
    week = "(day + 3) // 7"  # weeks starting on Monday: 1970-01-01 was a Thursday
    days = f"""
        WITH daily AS (SELECT day, count(*) AS n, sum(duration) AS t FROM q GROUP BY day),
        today AS (SELECT {today} AS today),
        active AS (SELECT day, n, t FROM daily, today WHERE day <= today),
        islands AS (
            SELECT min(day) AS first, max(day) AS last, count(*) AS length
            FROM (SELECT day, day - row_number() OVER (ORDER BY day) AS island FROM active) GROUP BY island),
        weeks AS (SELECT DISTINCT {week} AS week FROM active),
        runs AS (SELECT max(week) AS last, count(*) AS length
                 FROM (SELECT week, week - row_number() OVER (ORDER BY week) AS run FROM weeks) GROUP BY run),
        span AS (SELECT min(day) AS first, any_value(today) AS today FROM active, today),
        calendar AS (SELECT range AS day FROM span, range(span.first, span.today + 1)),
        scored AS (
            SELECT c.day, a.day IS NOT NULL AS is_active,
                   CASE WHEN a.day IS NOT NULL THEN 1.0
                        WHEN b.day IS NOT NULL OR (n.day IS NOT NULL AND c.day + 1 <= s.today) THEN 0.5
                        ELSE 0.0 END AS v
            FROM calendar c CROSS JOIN span s
            LEFT JOIN active a ON a.day = c.day
            LEFT JOIN active b ON b.day = c.day - 1
            LEFT JOIN active n ON n.day = c.day + 1),
        shown AS (
            SELECT CASE WHEN max(day) < any_value(today) - ({CALENDAR_DAYS} - 1) THEN max(day) ELSE any_value(today) END AS last
            FROM daily, today)
        SELECT
            (SELECT count(*) FROM daily),
            (SELECT coalesce(max(length), 0) FROM islands, today WHERE last >= today - 1),
            (SELECT coalesce(max(length), 0) FROM islands),
            (SELECT list([first, last, length] ORDER BY first)
             FROM (SELECT * FROM islands ORDER BY length DESC, last DESC LIMIT 3)),
            (SELECT coalesce(max(length), 0) FROM runs, today WHERE last >= (today + 3) // 7 - 1),
            (SELECT any_value(today) - max(day) FROM active, today),
            (SELECT CASE
                WHEN s.first IS NULL THEN 0
                WHEN s.today - s.first + 1 = 1 THEN (SELECT CASE WHEN bool_or(is_active) THEN 100 ELSE 0 END FROM scored)
                WHEN s.today - s.first + 1 < 30 THEN round(100.0 * (SELECT count(*) FROM active) / (s.today - s.first + 1))
                ELSE round(100 * (
                    (SELECT count(*) FROM active WHERE day < s.first + 29) / 29.0 * pow(0.9, s.today - s.first - 28)
                    + (SELECT coalesce(sum(0.1 * v * pow(0.9, s.today - day)), 0) FROM scored WHERE day >= s.first + 29)))
                END FROM span s),
            (SELECT list([n, t] ORDER BY day) FROM daily, shown
             WHERE day BETWEEN shown.last - ({CALENDAR_DAYS} - 1) AND shown.last)"""
    when = """
        SELECT GROUPING(weekday) = 0 AS by_weekday, weekday, hour, count(*), sum(duration)
        FROM (SELECT duration, isodow(date) AS weekday, hour(local) AS hour FROM q)
        GROUP BY GROUPING SETS ((weekday), (hour))"""
    months = """
        WITH monthly AS (SELECT date_trunc('month', date) AS month, count(*) AS n, sum(duration) AS t FROM q GROUP BY month),
        calendar AS (SELECT unnest(generate_series(min(month), max(month), INTERVAL 1 MONTH)) AS month FROM monthly)
        SELECT coalesce(n, 0), coalesce(t, 0) FROM calendar LEFT JOIN monthly USING (month) ORDER BY calendar.month"""
    return place, [("totals", totals), ("days", days), ("when", when), ("months", months)]


def values(results):
    """Each statistic's numbers, flattened as the suite flattens Stillpoint's values, from the shapes' rows."""
    values = {}
    totals = results["totals"]
    overall = next(row for row in totals if not any(row[0:3]))
    count, total, average, median, longest = overall[6:]
    values["session_count"] = [count]
    values["total_time"] = [total]
    values["average_session_time"] = [] if average is None else [average]
    values["median_session_time"] = [] if median is None else [median]
    values["longest_session"] = [] if longest is None else [longest]
    values["by_kind"] = ([number for row in totals if row[0] for number in row[6:8]]
                         + [number for row in totals if row[1] for number in row[6:8]])
    values["by_import"] = [number for row in totals if row[2] for number in row[6:8]]

    (active_days, current, longest_streak, best, weekly, since, consistency, calendar), = results["days"]
    values["active_days"] = [active_days]
    values["current_streak"] = [current]
    values["longest_streak"] = [longest_streak]
    values["best_streaks"] = [number for streak in best or [] for number in streak]
    values["weekly_streak"] = [weekly]
    values["days_since_last_session"] = [] if since is None else [since]
    values["consistency"] = [consistency]
    values["daily_activity"] = [number for day in calendar or [] for number in day]

    weekdays = {row[1]: row[3:] for row in results["when"] if row[0]}
    hours = {row[2]: row[3:] for row in results["when"] if not row[0]}
    values["sessions_by_weekday"] = [number for day in range(1, 8) for number in weekdays.get(day, (0, 0))]
    values["sessions_by_hour"] = [number for hour in range(24) for number in hours.get(hour, (0, 0))]
    values["totals_by_period"] = [number for row in results["months"] for number in row]
    return {name: [float(number) for number in numbers] for name, numbers in values.items()}


def main():
    arguments = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    arguments.add_argument("store")
    arguments.add_argument("--time-zone", required=True)
    arguments.add_argument("--as-of", type=float, required=True)
    arguments.add_argument("--day-starts-at", type=float, default=0)
    arguments.add_argument("--threads", type=int, default=os.cpu_count())
    options = arguments.parse_args()

    connection = duckdb.connect(config={"threads": options.threads})
    started = time.perf_counter()
    load(connection, options.store)
    load_seconds = time.perf_counter() - started

    place, shapes = queries(options.time_zone, options.as_of, options.day_starts_at)
    started = time.perf_counter()
    connection.execute(place)
    results = {name: connection.execute(sql).fetchall() for name, sql in shapes}
    seconds = time.perf_counter() - started
    print(json.dumps({
        "duckdb": duckdb.__version__, "threads": options.threads, "load_seconds": load_seconds, "seconds": seconds,
        "values": values(results),
    }))


if __name__ == "__main__":
    main()
