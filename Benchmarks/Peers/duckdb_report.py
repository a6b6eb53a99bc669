#!/usr/bin/env python3
"""The report suite's DuckDB peer: the default report's statistics in DuckDB SQL over the same sessions.

Usage: duckdb_report.py STORE.sqlite --time-zone ZONE --as-of EPOCH_SECONDS [--day-starts-at SECONDS]

Loads the `Session` rows of the SQLite store into an in-memory DuckDB table (not timed), then times every
statistic's query, one after the other, each over the whole table, and prints one JSON object:
{"load_seconds": ..., "seconds": ..., "values": {"session_count": [...], ...}}. The values are flattened as the
suite flattens Stillpoint's (quantities, day numbers since 1970-01-01, records field by field, lists item by
item), so that the suite checks that the peer computed the same numbers before it compares times.

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


def load(connection, store):
    """Copies the sessions into DuckDB through a CSV file: the sqlite extension would need a download."""
    source = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    with tempfile.NamedTemporaryFile("w", suffix=".csv", newline="", delete=False) as file:
        writer = csv.writer(file)
        writer.writerow(["start", "duration", "kind", "source", "zone"])
        writer.writerows(source.execute('SELECT "start", "duration", "kind", "source", "timeZone" FROM "Session"'))
        path = file.name
    source.close()
    try:
        connection.execute(
            "CREATE TABLE session AS SELECT * FROM read_csv(?, header = true, columns = "
            "{'start': 'DOUBLE', 'duration': 'DOUBLE', 'kind': 'VARCHAR', 'source': 'VARCHAR', 'zone': 'VARCHAR'})",
            [path])
    finally:
        os.unlink(path)


def statistics(zone, as_of, day_starts_at):
    """Each statistic's SQL, in the default manifest's order. `q` is the qualifying sessions with their local
    timestamp (`local`) and day number (`day`); `days` the distinct active days; `today` today's day number."""
    q = f"""
        WITH l AS (
            SELECT duration, kind, source, timezone(coalesce(zone, '{zone}'), to_timestamp(start)) AS local
            FROM session WHERE duration > 0 AND start <= {as_of}),
        q AS (
            SELECT *, date_diff('day', DATE '1970-01-01', date) AS day
            FROM (SELECT *, CAST(local - INTERVAL ({day_starts_at}) SECOND AS DATE) AS date FROM l))"""
    today = f"""date_diff('day', DATE '1970-01-01',
                 CAST(timezone('{zone}', to_timestamp({as_of})) - INTERVAL ({day_starts_at}) SECOND AS DATE))"""
    days = f"{q}, days AS (SELECT DISTINCT day FROM q), today AS (SELECT {today} AS today)"
    islands = f"""{days}, islands AS (
            SELECT min(day) AS first, max(day) AS last, count(*) AS length
            FROM (SELECT day, day - row_number() OVER (ORDER BY day) AS island FROM days) GROUP BY island)"""
    week = "(day + 3) // 7"  # weeks starting on Monday: 1970-01-01 was a Thursday
    return [
        ("session_count", f"{q} SELECT count(*) FROM q"),
        ("total_time", f"{q} SELECT coalesce(sum(duration), 0) FROM q"),
        ("average_session_time", f"{q} SELECT avg(duration) FROM q"),
        ("median_session_time", f"{q} SELECT median(duration) FROM q"),
        ("longest_session", f"{q} SELECT max(duration) FROM q"),
        ("active_days", f"{days} SELECT count(*) FROM days"),
        ("current_streak", f"""{islands} SELECT coalesce(max(length), 0) FROM islands, today
                                  WHERE last >= today - 1 AND first <= today"""),
        ("longest_streak", f"{islands} SELECT coalesce(max(length), 0) FROM islands, today WHERE first <= today"),
        ("best_streaks", f"""{islands}, best AS (
                                 SELECT first, last, length FROM islands, today WHERE first <= today
                                 ORDER BY length DESC, last DESC LIMIT 3)
                             SELECT first, last, length FROM best ORDER BY first"""),
        ("weekly_streak", f"""{days}, weeks AS (SELECT DISTINCT {week} AS week FROM days, today WHERE day <= today),
                              runs AS (SELECT min(week) AS first, max(week) AS last, count(*) AS length
                                       FROM (SELECT week, week - row_number() OVER (ORDER BY week) AS run FROM weeks)
                                       GROUP BY run)
                              SELECT coalesce(max(length), 0) FROM runs, today
                              WHERE last >= (today + 3) // 7 - 1"""),
        ("days_since_last_session", f"{days} SELECT today - max(day) FROM days, today GROUP BY today"),
        ("consistency", f"""{days},
                            active AS (SELECT day FROM days, today WHERE day <= today),
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
                                LEFT JOIN active n ON n.day = c.day + 1)
                            SELECT CASE
                                WHEN s.first IS NULL THEN 0
                                WHEN s.today - s.first + 1 = 1 THEN (SELECT CASE WHEN bool_or(is_active) THEN 100 ELSE 0 END FROM scored)
                                WHEN s.today - s.first + 1 < 30 THEN round(100.0 * (SELECT count(*) FROM active) / (s.today - s.first + 1))
                                ELSE round(100 * (
                                    (SELECT count(*) FROM active WHERE day < s.first + 29) / 29.0 * pow(0.9, s.today - s.first - 28)
                                    + (SELECT coalesce(sum(0.1 * v * pow(0.9, s.today - day)), 0) FROM scored WHERE day >= s.first + 29)))
                                END FROM span s"""),
        ("sessions_by_weekday", f"""{q}, week AS (SELECT range AS weekday FROM range(1, 8))
                                    SELECT count(q.day), coalesce(sum(q.duration), 0) FROM week
                                    LEFT JOIN q ON isodow(q.date) = week.weekday
                                    GROUP BY week.weekday ORDER BY week.weekday"""),
        ("sessions_by_hour", f"""{q}, hours AS (SELECT range AS hour FROM range(0, 24))
                                 SELECT count(q.local), coalesce(sum(q.duration), 0) FROM hours
                                 LEFT JOIN q ON hour(q.local) = hours.hour GROUP BY hours.hour ORDER BY hours.hour"""),
        ("by_kind", f"""{q} SELECT * FROM (
                            SELECT 0 AS part, kind AS name, count(*), sum(duration) FROM q GROUP BY kind
                            UNION ALL SELECT 1, source, count(*), sum(duration) FROM q GROUP BY source)
                        ORDER BY part, name"""),
        ("totals_by_period", f"""{q}, months AS (
                                     SELECT date_trunc('month', date) AS month, count(*) AS n, sum(duration) AS t
                                     FROM q GROUP BY month),
                                 calendar AS (SELECT unnest(generate_series(min(month), max(month), INTERVAL 1 MONTH)) AS month FROM months)
                                 SELECT coalesce(n, 0), coalesce(t, 0) FROM calendar LEFT JOIN months USING (month)
                                 ORDER BY calendar.month"""),
    ]


def numbers(name, rows):
    """The statistic's numbers, flattened as the suite flattens Stillpoint's values."""
    if name == "by_kind":
        return [float(value) for row in rows for value in row[2:]]
    return [float(value) for row in rows for value in row if value is not None]


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

    values = {}
    started = time.perf_counter()
    for name, sql in statistics(options.time_zone, options.as_of, options.day_starts_at):
        values[name] = connection.execute(sql).fetchall()
    seconds = time.perf_counter() - started
    print(json.dumps({
        "duckdb": duckdb.__version__, "threads": options.threads, "load_seconds": load_seconds, "seconds": seconds,
        "values": {name: numbers(name, rows) for name, rows in values.items()},
    }))


if __name__ == "__main__":
    main()
