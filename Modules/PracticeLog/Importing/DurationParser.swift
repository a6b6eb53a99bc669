import Foundation

/// Parses the duration notations of the exports into seconds.
enum DurationParser {
    enum Outcome: Equatable {
        case seconds(TimeInterval)
        case negative
        case invalid
    }

    /// `H:M:S` without padding (`0:25:0`, `87:21:41`); minutes and seconds below 60.
    static func hoursMinutesSeconds(_ text: String) -> Outcome {
        // Scans the bytes once: this runs for every row of an export.
        var parts: [Int] = []
        var value = 0
        var digits = 0
        var isNegative = false
        for (offset, byte) in text.trimmed().utf8.enumerated() {
            switch byte {
            case UInt8(ascii: "-") where offset == 0:
                isNegative = true
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                guard digits < 9 else { return .invalid }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))  // swiftlint:disable:this integer_conversion: one digit, checked above
                digits += 1
            case UInt8(ascii: ":"):
                guard digits > 0, parts.count < 2 else { return .invalid }
                parts.append(value)
                value = 0
                digits = 0
            default:
                return .invalid
            }
        }
        guard digits > 0, parts.count == 2, parts[1] < 60, value < 60 else { return .invalid }
        let total = TimeInterval(parts[0] * 3_600 + parts[1] * 60 + value)
        return isNegative && total > 0 ? .negative : .seconds(total)
    }

    /// A decimal number times `scale` (60 for minutes); a lone comma counts as the decimal point.
    static func number(_ text: String, scale: Double) -> Outcome {
        var body = text.trimmed()
        if !body.contains("."), body.filter({ $0 == "," }).count == 1 {
            body = body.replacingOccurrences(of: ",", with: ".")
        }
        guard !body.isEmpty, body.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "." || $0 == "-" || $0 == "+") }),
              let value = Double(body), value.isFinite
        else { return .invalid }
        return value < 0 ? .negative : .seconds(value * scale)
    }
}
