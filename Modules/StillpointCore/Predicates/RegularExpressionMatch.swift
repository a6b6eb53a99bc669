import Foundation

/// `MATCHES`: an ICU regular expression (`NSRegularExpression`'s) over the whole string, as `NSPredicate`
/// matches it, shared by the evaluator and the SQL function SQLite's connections register.
///
/// `[c]` matches case-insensitively (the regular expression's own option, so `\D` keeps its meaning); `[d]`
/// drops the diacritics of the text and the pattern before matching.
///
/// ```swift
/// RegularExpressionMatch.matches("Room 12", pattern: "room \\d+", flags: 1)   // true
/// RegularExpressionMatch.matches("Room 12a", pattern: "room \\d+", flags: 1)  // false: the whole string
/// ```
package enum RegularExpressionMatch {
    /// The SQL function `stillpoint_matches(text, pattern, flags)`: 1, 0, or NULL when either is NULL.
    package static let sqlFunctionName = "stillpoint_matches"

    /// Why `pattern` isn't a regular expression, or `nil` when it is one.
    static func problem(with pattern: String) -> String? {
        do {
            _ = try NSRegularExpression(pattern: wholeString(pattern))
            return nil
        } catch {
            return "'\(pattern)' isn't a regular expression (ICU syntax, as NSRegularExpression reads it)"
        }
    }

    /// The pattern anchored at both ends, in a group so that `a|b` is anchored as a whole.
    private static func wholeString(_ pattern: String) -> String {
        "\\A(?:" + pattern + ")\\z"
    }

    /// Whether the whole of `text` matches `pattern`; `nil` when the pattern isn't a regular expression.
    package static func matches(_ text: String, pattern: String, flags: Int) -> Bool? {
        let diacritics = flags & TextFolding.diacriticInsensitiveFlag != 0
        let subject = diacritics ? TextFolding.fold(text, flags: TextFolding.diacriticInsensitiveFlag) : text
        let expression = diacritics ? TextFolding.fold(pattern, flags: TextFolding.diacriticInsensitiveFlag) : pattern
        var options: NSRegularExpression.Options = []
        if flags & TextFolding.caseInsensitiveFlag != 0 { options.insert(.caseInsensitive) }
        guard let regex = try? NSRegularExpression(pattern: wholeString(expression), options: options) else { return nil }
        return regex.firstMatch(in: subject, range: NSRange(location: 0, length: subject.utf16.count)) != nil
    }
}
