/// Text made safe for HTML and inline SVG, and numbers written compactly for SVG coordinates.
///
/// ```swift
/// HTMLText.escape("<script>")   // "&lt;script&gt;"
/// HTMLText.number(12.0)         // "12"
/// ```
enum HTMLText {
    /// Escapes the five characters that could end text or an attribute value, so names from a manifest
    /// (`as: "<script>"`) show as written and never run; control characters, which a page would hide or
    /// refuse, show escaped as in every other format (``ValueText/visible(_:keepingLineBreaks:)``).
    static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in ValueText.visible(text) {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }

    /// Escaped text whose ISO dates never break at their hyphens, which a browser would otherwise do in a
    /// narrow card (`2026-11-` / `21`).
    static func escapeKeepingDates(_ text: String) -> String {
        escape(text).replacing(/\d{4}-\d{2}-\d{2}/) { match in
            "<span class=\"date\">\(match.output)</span>"
        }
    }

    /// A coordinate with at most one decimal, which keeps the SVG small and its diff readable.
    static func number(_ value: Double) -> String {
        let tenths = (value * 10).rounded()
        guard tenths.isFinite else { return "0" }
        // Beyond 10^15 a coordinate is nonsense anyway, and Int(tenths) would trap.
        guard abs(tenths) < 1e15 else { return tenths < 0 ? "-100000000000000" : "100000000000000" }
        let whole = Int(tenths) / 10, fraction = abs(Int(tenths) % 10)
        if fraction == 0 { return String(Int(tenths) / 10) }
        return (tenths < 0 && whole == 0 ? "-" : "") + "\(whole).\(fraction)"
    }
}
