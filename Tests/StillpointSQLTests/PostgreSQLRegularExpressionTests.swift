import Foundation
import PropertyBased
import Testing
import StillpointCore
@testable import StillpointSQL

/// How a MATCHES pattern reads as PostgreSQL's regular expression: every character spelt out, ICU's sets as
/// ranges, `[c]` as case variants, and the constructs PostgreSQL would read otherwise refused with why.
/// (`PostgresAgreementTests+Matches` runs them against a server.)
@Suite struct PostgreSQLRegularExpressionTests {
    private func translated(_ pattern: String, flags: Int = 0) throws -> String {
        try PostgreSQLRegularExpression(pattern, flags: flags).pattern
    }

    @Test func charactersAreEscapedAndTheWholeStringAnchored() throws {
        #expect(try translated("ab") == "^(?:\\u0061\\u0062)$")
        #expect(try translated("a|b*") == "^(?:\\u0061|\\u0062*)$")
        #expect(try translated("a+?[b]*?") == "^(?:\\u0061+[\\u0062]*)$", "a lazy quantifier is greedy: only a whole match is asked")
        #expect(try translated("\\.\\Q*[\\E") == "^(?:\\u002E\\u002A\\u005B)$")
        #expect(try translated("\\x{1F600}\\u00e9\\t") == "^(?:\\U0001F600\\u00E9\\u0009)$")
        #expect(try translated("a{2,}b{1,3}") == "^(?:\\u0061{2,}\\u0062{1,3})$")
        #expect(try translated("(?#note)x") == "^(?:\\u0078)$")
    }

    @Test func icuSetsBecomeRanges() throws {
        #expect(try translated(".") == "^(?:[^\\u000A-\\u000D\\u0085\\u2028-\\u2029])$", "ICU's . stops at every line terminator")
        let digits = try translated("\\d")
        #expect(digits.contains("\\u0030-\\u0039") && digits.contains("\\u0660-\\u0669"), "\\d is every decimal digit: \(digits)")
        let spaces = try translated("\\s")
        #expect(spaces.contains("\\u0009-\\u000D") && spaces.contains("\\u0085") && !spaces.contains("\\u001C"), "\(spaces)")
        #expect(try translated("[^\\S]").hasPrefix("^(?:[^\\u0001-\\u0008"), "a negated class in a negated set")
        #expect(try translated("a$").contains("(?=(?:\\u000D\\u000A|[\\u000A-\\u000D\\u0085\\u2028-\\u2029])?$)"),
                "$ may stand before a final line terminator")
    }

    @Test func caseInsensitiveMatchingSpellsOutCaseVariants() throws {
        #expect(try translated("k", flags: 1) == "^(?:[\\u004B\\u006B\\u212A])$", "k, K and the Kelvin sign")
        #expect(try translated("ss", flags: 1) == "^(?:(?:[\\u0053\\u0073\\u017F][\\u0053\\u0073\\u017F]|[\\u00DF\\u1E9E]))$",
                "a literal string matches text of the same full folding: ß")
        #expect(try translated("s+", flags: 1) == "^(?:[\\u0053\\u0073\\u017F]+)$", "a repeated character folds alone")
        #expect(try translated("ß+", flags: 1) == "^(?:(?:(?:[\\u0053\\u0073\\u017F][\\u0053\\u0073\\u017F]|[\\u00DF\\u1E9E]))+)$",
                "a repeated ß is still ICU's literal string: ß+ matches ssss")
        #expect(try translated("[a-b]", flags: 1) == "^(?:[\\u0041-\\u0042\\u0061-\\u0062])$")
        #expect(try translated("Ab", flags: 2) == "^(?:\\u0041\\u0062)$", "[d] alone leaves case as it is")
        #expect(try translated("é", flags: 2) == "^(?:\\u0065)$", "[d] folds the pattern, as the evaluator does")
    }

    @Test("constructs PostgreSQL would read otherwise are refused, saying why", arguments: [
        ("\\w+", "\\w is ICU's Unicode word characters"), ("\\bx", "\\b is ICU's"), ("\\p{L}", "no Unicode properties"),
        ("(?i)x", "inline flags"), ("(?>x)", "atomic groups"), ("(x)\\1", "back references"), ("x*+", "possessive"),
        ("[[:alpha:]]", "POSIX classes"), ("[a&&b]", "set intersection"), ("x{256}", "at most 255 times"),
        ("\\X", "no PostgreSQL equivalent"), ("(?:a.*?)+?b", "a lazy quantifier on a group"), ("[]a]", "starting with ']'"), ("^*", "repeats an assertion"),
    ])
    func refusals(pattern: String, reason: String) {
        #expect {
            try translated(pattern)
        } throws: { error in
            let message = (error as? FetchPredicateError)?.message ?? ""
            return message.contains("MATCHES '\(pattern)' can't run on PostgreSQL") && message.contains(reason)
                && message.contains("use a SQLite store")
        }
    }

    /// Patterns put together from ICU's syntax: each that ICU reads is translated or refused, never a trap, and a
    /// translation is anchored at both ends.
    @Test func patternsMadeOfICUSyntaxAreTranslatedOrRefused() async {
        let pieces = ["a", "ß", "ſ", "K", "(", ")", "(?:", "(?=", "(?<!", "(?#c)", "(?i)", "[", "]", "[^", "-", "a-z", "\\", "\\d",
                      "\\S", "\\w", "\\x{10FFFF}", "\\u00e9", "\\Q", "\\E", "\\0", "\\c", ".", "^", "$", "|", "*", "+", "?",
                      "*?", "++", "{2}", "{1,", "{,3}", "{300}", "&&", "--", "\\p{L}", "\\1", "\u{0}", "\u{85}"]
        let patterns = Gen.element(of: pieces).array(of: 0...24).map { $0.compactMap { $0 }.joined() }
        await propertyCheck(count: 1_000, input: patterns) { pattern in
            guard (try? NSRegularExpression(pattern: pattern)) != nil else { return }
            for flags in 0...3 {
                do {
                    let translated = try PostgreSQLRegularExpression(pattern, flags: flags).pattern
                    #expect(translated.hasPrefix("^(?:") && translated.hasSuffix(")$"), "\(pattern.debugDescription): \(translated)")
                } catch let error as FetchPredicateError {
                    #expect(error.message.contains("can't run on PostgreSQL"), "\(pattern.debugDescription): \(error)")
                } catch {
                    Issue.record("\(pattern.debugDescription): \(error)")
                }
            }
        }
    }
}
