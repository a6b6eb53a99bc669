import Foundation

/// The medians of one workload, at one size, on one store: a row of a table and an object of `--json`.
///
/// ```json
/// {"suite": "seed004", "workload": "write", "n": 50000, "store": "file",
///  "seconds": 0.041, "baseline_seconds": 0.027, "ratio": 1.52}
/// ```
///
/// Extra metrics (`peak_rss_mb`, `max_gap_ms`, ...) follow, only when the workload measured them.
struct Measurement: Sendable {
    let suite: String
    let workload: String
    let n: Int
    let store: StoreKind
    let seconds: Double
    let baselineSeconds: Double?
    /// Further metrics by JSON key, in the order they are written.
    let metrics: [(key: String, value: Double)]

    /// `seconds / baseline_seconds`, or `nil` without a baseline.
    var ratio: Double? {
        guard let baselineSeconds, baselineSeconds > 0 else { return nil }
        return seconds / baselineSeconds
    }

    /// The metric named `key`, if it was measured.
    func metric(_ key: String) -> Double? {
        metrics.first { $0.key == key }?.value
    }

    /// One JSON object, keys in a fixed order.
    var json: String {
        var fields: [(String, String)] = [
            ("suite", JSON.string(suite)),
            ("workload", JSON.string(workload)),
            ("n", String(n)),
            ("store", JSON.string(store.rawValue)),
            ("seconds", JSON.number(seconds)),
            ("baseline_seconds", baselineSeconds.map(JSON.number) ?? "null"),
            ("ratio", ratio.map(JSON.number) ?? "null"),
        ]
        for (key, value) in metrics {
            fields.append((key, JSON.number(value)))
        }
        return "{" + fields.map { "\(JSON.string($0.0)): \($0.1)" }.joined(separator: ", ") + "}"
    }

    /// A JSON array of measurements, one object per line.
    static func jsonArray(_ measurements: [Measurement]) -> String {
        guard !measurements.isEmpty else { return "[]" }
        return "[\n" + measurements.map { "  " + $0.json }.joined(separator: ",\n") + "\n]"
    }
}

/// The little JSON the harness writes: strings and numbers.
enum JSON {
    static func string(_ value: String) -> String {
        var escaped = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\t": escaped += "\\t"
            case _ where scalar.value < 0x20:
                escaped += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                    + String(scalar.value, radix: 16)
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped + "\""
    }

    /// A number with up to 9 significant digits; `null` for values JSON cannot hold.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(Double(String(format: "%.9g", value)) ?? value)
    }
}
