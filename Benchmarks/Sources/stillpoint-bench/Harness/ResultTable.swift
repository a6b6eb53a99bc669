import Foundation

/// Plain-text tables in Markdown's pipe syntax, so that they paste into a README as they are.
enum ResultTable {
    /// Lays out rows of cells with aligned columns and a rule under the header.
    static func render(header: [String], rows: [[String]]) -> String {
        let widths = header.indices.map { column in
            ([header] + rows).map { $0.indices.contains(column) ? $0[column].count : 0 }.max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            "| " + header.indices.map { column in
                let cell = cells.indices.contains(column) ? cells[column] : ""
                return cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }.joined(separator: " | ") + " |"
        }
        let rule = "|" + widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "|") + "|"
        return ([line(header), rule] + rows.map(line)).joined(separator: "\n")
    }

    /// One row per measurement, with its extra metrics as further columns.
    static func generic(_ measurements: [Measurement], title: String) -> String {
        var metricKeys: [String] = []
        for measurement in measurements {
            for (key, _) in measurement.metrics where !metricKeys.contains(key) { metricKeys.append(key) }
        }
        let header = ["workload", "n", "store", "seconds", "baseline", "ratio"] + metricKeys
        let rows = measurements.map { measurement in
            [measurement.workload, String(measurement.n), measurement.store.rawValue, seconds(measurement.seconds),
             measurement.baselineSeconds.map(seconds) ?? "-", measurement.ratio.map(ratio) ?? "-"]
                + metricKeys.map { key in measurement.metric(key).map { String(format: "%.1f", $0) } ?? "-" }
        }
        return title + "\n\n" + render(header: header, rows: rows)
    }

    static func seconds(_ value: Double) -> String {
        String(format: value < 0.1 ? "%.4f sec" : "%.3f sec", value)
    }

    static func ratio(_ value: Double) -> String {
        String(format: "%.2fx", value)
    }
}
