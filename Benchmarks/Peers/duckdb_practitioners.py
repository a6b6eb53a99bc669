#!/usr/bin/env python3
"""The practitioners suite's DuckDB peer: the per-practitioner report in DuckDB SQL over the same sessions.

Usage: duckdb_practitioners.py SESSIONS.csv --as-of EPOCH_SECONDS --mode all|one|insert [--ids FILE] [--threads N]

SESSIONS.csv has the columns practitioner, start (seconds since 1970), duration (seconds), zone, in practitioner
order. It is loaded into an in-memory DuckDB table (not timed); then, timed:

- `all`: every practitioner's report, as one set of grouped queries (the way DuckDB is fastest);
- `one`: the report of each practitioner named in --ids (one per line), one after the other, each timed;
- `insert`: for each line `id,start,duration,zone` of --ids, that session inserted (not timed), then the
  practitioner's report (timed).

The report is what the suite asks of Stillpoint: count, total, average, median and longest session, active days,
current and longest streak in local days (gaps and islands), sessions and time by weekday and by hour. A session's
day is the local date of its start in its own zone (the report's zone, UTC, when it has none); sessions last more
than 0 s and start no later than as_of; today is as_of's date in UTC.

Prints one JSON object: {"seconds": total, "times": [each report's seconds], "load_seconds": ...,
"values": {practitioner: {statistic: [numbers]}}}, the numbers flattened as the suite flattens Stillpoint's.
"""
import argparse
import json
import os
import sys
import time

try:
    import duckdb
except ImportError:
    print(json.dumps({"unavailable": "the Python module duckdb is not installed (pip install duckdb)"}))
    sys.exit(0)


def report_queries(as_of, where):
    """The timed statements of one report (or of all, when `where` is TRUE), each returning rows keyed by practitioner."""
    placed = f"""
        SELECT practitioner, duration, local, date_diff('day', DATE '1970-01-01', CAST(local AS DATE)) AS day
        FROM (SELECT practitioner, duration, timezone(coalesce(zone, 'UTC'), to_timestamp(start)) AS local
              FROM session WHERE {where} AND duration > 0 AND start <= {as_of})"""
    today = f"date_diff('day', DATE '1970-01-01', CAST(timezone('UTC', to_timestamp({as_of})) AS DATE))"
    totals = f"""
        SELECT practitioner, count(*), coalesce(sum(duration), 0), avg(duration), median(duration), max(duration)
        FROM ({placed}) GROUP BY practitioner"""
    days = f"""
        WITH daily AS (SELECT DISTINCT practitioner, day FROM ({placed})),
        islands AS (
            SELECT practitioner, max(day) AS last, count(*) AS length
            FROM (SELECT practitioner, day, day - row_number() OVER (PARTITION BY practitioner ORDER BY day) AS island FROM daily)
            GROUP BY practitioner, island)
        SELECT practitioner, sum(length), coalesce(max(length) FILTER (WHERE last >= {today} - 1), 0), max(length)
        FROM islands GROUP BY practitioner"""
    when = f"""
        SELECT practitioner, GROUPING(weekday) = 0, weekday, hour, count(*), sum(duration)
        FROM (SELECT practitioner, duration, isodow(local) AS weekday, hour(local) AS hour FROM ({placed}))
        GROUP BY GROUPING SETS ((practitioner, weekday), (practitioner, hour))"""
    return [("totals", totals), ("days", days), ("when", when)]


def values(results):
    """Each practitioner's numbers by statistic, flattened as the suite flattens Stillpoint's values."""
    reports = {}
    for practitioner, count, total, average, median, longest in results["totals"]:
        reports[practitioner] = {
            "session_count": [count], "total_time": [total],
            "average_session_time": [] if average is None else [average],
            "median_session_time": [] if median is None else [median],
            "longest_session": [] if longest is None else [longest],
        }
    for practitioner, active, current, longest in results["days"]:
        reports[practitioner].update({"active_days": [active], "current_streak": [current], "longest_streak": [longest]})
    weekdays, hours = {}, {}
    for practitioner, by_weekday, weekday, hour, count, total in results["when"]:
        if by_weekday:
            weekdays.setdefault(practitioner, {})[weekday] = (count, total)
        else:
            hours.setdefault(practitioner, {})[hour] = (count, total)
    for practitioner, report in reports.items():
        report["sessions_by_weekday"] = [n for day in range(1, 8) for n in weekdays.get(practitioner, {}).get(day, (0, 0))]
        report["sessions_by_hour"] = [n for hour in range(24) for n in hours.get(practitioner, {}).get(hour, (0, 0))]
    return {practitioner: {name: [float(n) for n in numbers] for name, numbers in report.items()}
            for practitioner, report in reports.items()}


def run(connection, queries, parameters):
    started = time.perf_counter()
    results = {name: connection.execute(sql, parameters).fetchall() for name, sql in queries}
    return time.perf_counter() - started, results


def main():
    arguments = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    arguments.add_argument("sessions")
    arguments.add_argument("--as-of", type=float, required=True)
    arguments.add_argument("--mode", choices=["all", "one", "insert"], required=True)
    arguments.add_argument("--ids")
    arguments.add_argument("--threads", type=int, default=os.cpu_count())
    options = arguments.parse_args()

    connection = duckdb.connect(config={"threads": options.threads})
    started = time.perf_counter()
    connection.execute("""CREATE TABLE session AS SELECT * FROM read_csv(?, header = true, columns = {
        'practitioner': 'VARCHAR', 'start': 'DOUBLE', 'duration': 'DOUBLE', 'zone': 'VARCHAR'})""", [options.sessions])
    load_seconds = time.perf_counter() - started

    times, reports = [], {}
    if options.mode == "all":
        seconds, results = run(connection, report_queries(options.as_of, "TRUE"), [])
        times.append(seconds)
        reports = values(results)
    else:
        with open(options.ids) as file:
            lines = [line.strip() for line in file if line.strip()]
        one = report_queries(options.as_of, "practitioner = $id")
        for line in lines:
            fields = line.split(",")
            if options.mode == "insert":
                connection.execute("INSERT INTO session VALUES (?, ?, ?, ?)",
                                   [fields[0], float(fields[1]), float(fields[2]), fields[3]])
            seconds, results = run(connection, one, {"id": fields[0]})
            times.append(seconds)
            reports.update(values(results))
    print(json.dumps({"duckdb": duckdb.__version__, "threads": options.threads, "load_seconds": load_seconds,
                      "seconds": sum(times), "times": times, "values": reports}))


if __name__ == "__main__":
    main()
