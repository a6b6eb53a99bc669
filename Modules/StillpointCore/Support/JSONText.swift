/// JSON text the package writes by hand (the change log's payload, the JSON report), where `JSONEncoder` would
/// cost more than the writing or could not keep the keys in order.
package enum JSONText {
    /// A JSON string literal: quotes, backslashes and control characters (C0, DEL, C1) escaped, everything else as is.
    package static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\u{08}": result += "\\b"
            case "\u{0C}": result += "\\f"
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029:
                // Valid JSON as they are, but U+2028 and U+2029 end lines in JavaScript, and DEL and the C1
                // controls (0x9B starts a terminal command) drive a terminal that shows the file: escaped too.
                let hex = String(scalar.value, radix: 16, uppercase: false)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default:
                result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
