import StillpointCore

/// A `MATCHES` pattern (an ICU regular expression over the whole string, as `NSPredicate` reads it) rewritten as
/// a PostgreSQL advanced regular expression for `~` that matches exactly the same strings, or refused with why.
///
/// What the two engines spell differently is spelt out: `.` stops at ICU's line terminators, `\d` and `\s` become
/// ICU's Unicode sets as code point ranges (PostgreSQL's depend on the database's locale), `$` may stand before a
/// final line terminator, and every character is written as a `\u` escape. `[c]` is ICU's case-insensitive
/// mode: a character matches the characters of its case folding, and a run of literal characters also matches
/// text with the same full case folding (`ss` matches `ß`), as ICU matches literal strings. `[d]` is applied by
/// the caller, as the evaluator applies it: the pattern is folded here and the text's folded copy is matched.
/// Lazy quantifiers on a character or a set become greedy, since only whether the whole string matches is asked.
///
/// The constructs whose meaning PostgreSQL cannot give are refused: `\w`, `\b` and `\W`, `\B` (ICU's Unicode
/// word characters), `\p{…}`, POSIX and nested sets, set operations, back references, possessive quantifiers,
/// atomic groups, lazy quantifiers on groups (ICU stops repeating a group at an empty repetition), inline flags,
/// `\G`, `\X`, `\R`, `\h`, `\v`, `\N{…}`, and repetition counts above 255.
///
/// ```swift
/// try PostgreSQLRegularExpression("room \\d+", flags: 1).pattern
/// // ^(?:(?:[\u0052\u0072])... (every character spelt out, [c] as the characters of each folding)
/// try PostgreSQLRegularExpression("\\w+", flags: 0)   // throws: \w is ICU's Unicode word characters
/// ```
struct PostgreSQLRegularExpression {
    /// The pattern for PostgreSQL's `~`, anchored at both ends of the string.
    let pattern: String

    /// The longest translated pattern accepted: `[c]` spells out the characters of every folding.
    fileprivate static let longestPattern = 100_000
    /// PostgreSQL's largest repetition count (`RE_DUP_MAX`).
    fileprivate static let largestCount = 255

    /// Translates `pattern`, read with the flags of ``RegularExpressionMatch/matches(_:pattern:flags:)``.
    init(_ pattern: String, flags: Int) throws(FetchPredicateError) {
        let diacriticInsensitive = flags & TextFolding.diacriticInsensitiveFlag != 0
        let read = diacriticInsensitive ? TextFolding.fold(pattern, flags: TextFolding.diacriticInsensitiveFlag) : pattern
        var translator = Translator(source: pattern, scalars: Array(read.unicodeScalars),
                                    caseInsensitive: flags & TextFolding.caseInsensitiveFlag != 0)
        let body = try translator.alternation()
        if translator.position < translator.scalars.count {
            throw translator.refusal("the ')' at character \(translator.position + 1) closes no group")
        }
        guard body.utf8.count <= Self.longestPattern else {
            throw translator.refusal("its translation is longer than \(Self.longestPattern) bytes (each [c] character is spelt out with its case variants)")
        }
        self.pattern = "^(?:" + body + ")$"
    }
}

extension PostgreSQLRegularExpression {
    /// The reading of one pattern, left to right.
    fileprivate struct Translator {
        let source: String
        let scalars: [Unicode.Scalar]
        let caseInsensitive: Bool
        var position = 0

        /// What one element of a sequence became: a literal character (which `[c]` joins with its neighbours
        /// into a literal string), or translated text.
        private enum Piece {
            case literal(Unicode.Scalar)
            case text(String)
        }

        func refusal(_ why: String) -> FetchPredicateError {
            FetchPredicateError(.invalidComparison, "MATCHES '\(source)' can't run on PostgreSQL: \(why); rewrite the pattern without it, or use a SQLite store, which runs ICU's regular expressions")
        }

        private var current: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

        private func peek(_ offset: Int) -> Unicode.Scalar? {
            position + offset < scalars.count ? scalars[position + offset] : nil
        }

        // MARK: Structure

        /// Alternatives separated by `|`, up to a `)` or the end.
        mutating func alternation() throws(FetchPredicateError) -> String {
            var alternatives = [try sequence()]
            while current == "|" {
                position += 1
                alternatives.append(try sequence())
            }
            return alternatives.joined(separator: "|")
        }

        /// Elements up to a `|`, a `)` or the end, each with its quantifier.
        private mutating func sequence() throws(FetchPredicateError) -> String {
            var pieces: [Piece] = []
            while let scalar = current, scalar != "|", scalar != ")" {
                let atom = try self.atom()
                guard let (quantifier, isLazy) = try self.quantifier() else {
                    pieces += atom
                    continue
                }
                // A quantifier takes the last character of a literal run (`ab+` repeats b), as ICU reads it.
                var repeated = atom
                guard let last = repeated.popLast() else { throw refusal("a quantifier at character \(position) repeats nothing") }
                pieces += repeated
                switch last {
                case .literal(let character): pieces.append(.text(characterSet([character]) + quantifier))
                case .text(let text) where text.isEmpty: break
                case .text(let text) where text.hasPrefix("(?=") || text.hasPrefix("(?!") || text.hasPrefix("(?<") || text == "^" || text == "$":
                    throw refusal("a quantifier repeats an assertion")
                case .text(let text) where isLazy && text.hasPrefix("("):
                    throw refusal("a lazy quantifier on a group stops where ICU's repetition of an empty match stops, which PostgreSQL does not do; make it greedy (drop the '?')")
                case .text(let text): pieces.append(.text(text + quantifier))
                }
            }
            return literalRuns(pieces)
        }

        /// One atom: a character, a set, a group, an anchor or an escape; several pieces for `\Q…\E`.
        private mutating func atom() throws(FetchPredicateError) -> [Piece] {
            guard let scalar = current else { return [] }
            position += 1
            switch scalar {
            case ".": return [.text(Self.set(RegularExpressionCharacterSets.lineTerminators, negated: true))]
            case "^": return [.text("^")]
            case "$": return [.text(Self.endOfText)]
            case "[": return [.text(try bracket())]
            case "(": return [.text(try group())]
            case "\\": return try escape()
            case "*", "+", "?", "{":
                throw refusal("'\(scalar)' at character \(position) repeats nothing")
            default: return [.literal(scalar)]
            }
        }

        /// A group after its `(`: capturing or not (PostgreSQL's are all alike here), a lookahead or
        /// lookbehind, a comment; flags and atomic groups are refused.
        private mutating func group() throws(FetchPredicateError) -> String {
            var opening = "(?:"
            if current == "?" {
                position += 1
                switch (current, peek(1)) {
                case (":", _): position += 1
                case ("=", _), ("!", _):
                    opening = "(?" + String(current ?? "=")
                    position += 1
                case ("<", "="), ("<", "!"):
                    opening = "(?<" + String(peek(1) ?? "=")
                    position += 2
                case ("<", _):
                    // A named group: only back references would use its name, and they are refused.
                    while let scalar = current, scalar != ">" { position += 1 }
                    position += 1
                case ("#", _):
                    while let scalar = current, scalar != ")" { position += 1 }
                    position += 1
                    return ""
                case (">", _):
                    throw refusal("atomic groups (?>…) give up matches that PostgreSQL would find")
                default:
                    throw refusal("inline flags such as (?i) or (?x) are ICU's; use MATCHES[c] for case-insensitive matching")
                }
            }
            let body = try alternation()
            guard current == ")" else { throw refusal("a group is not closed") }
            position += 1
            return opening + body + ")"
        }

        /// A quantifier after an atom, PostgreSQL's spelling of it and whether it was lazy, or `nil` when none
        /// follows.
        private mutating func quantifier() throws(FetchPredicateError) -> (String, isLazy: Bool)? {
            guard let scalar = current else { return nil }
            var quantifier: String
            switch scalar {
            case "*", "+", "?":
                quantifier = String(scalar)
                position += 1
            case "{":
                let start = position
                position += 1
                let low = number()
                var high: Int? = low
                if current == "," {
                    position += 1
                    high = number()
                }
                guard let low, current == "}" else {
                    position = start
                    throw refusal("'{' at character \(start + 1) starts no repetition count")
                }
                position += 1
                guard low <= PostgreSQLRegularExpression.largestCount, (high ?? low) <= PostgreSQLRegularExpression.largestCount else {
                    throw refusal("PostgreSQL repeats at most \(PostgreSQLRegularExpression.largestCount) times")
                }
                quantifier = "{\(low)" + (high == low ? "}" : ",\(high.map(String.init) ?? "")}")
            default:
                return nil
            }
            switch current {
            case "?":
                // Lazy: on a character or a set, only whether the whole string matches is asked, which greed does
                // not change; the caller refuses it on a group.
                position += 1
                return (quantifier, true)
            case "+": throw refusal("possessive quantifiers (*+, ++, ?+, {n}+) give up matches that PostgreSQL would find")
            default: return (quantifier, false)
            }
        }

        private mutating func number() -> Int? {
            var value: Int?
            while let scalar = current, let digit = Int(String(scalar)), scalar.isASCII {
                value = min((value ?? 0) * 10 + digit, 1_000_000)
                position += 1
            }
            return value
        }

        // MARK: Escapes

        /// An escape after its `\` outside a set.
        private mutating func escape() throws(FetchPredicateError) -> [Piece] {
            guard let scalar = current else { throw refusal("it ends with a lone '\\'") }
            position += 1
            switch scalar {
            case "A": return [.text("^")]
            case "z": return [.text("$")]
            case "Z": return [.text(Self.endOfText)]
            case "d", "D", "s", "S": return [.text(Self.set(Self.classRanges(scalar), negated: scalar == "D" || scalar == "S"))]
            case "Q":
                var quoted: [Piece] = []
                while let next = current, !(next == "\\" && peek(1) == "E") {
                    quoted.append(.literal(next))
                    position += 1
                }
                if current != nil { position += 2 }
                return quoted
            case "E": return [.text("")]
            default: return [.literal(try literalEscape(scalar))]
            }
        }

        /// The character an escape stands for (`\t`, `\x41`, `\u00e9`, `\.`), or the refusal of an escape whose
        /// meaning PostgreSQL cannot give.
        private mutating func literalEscape(_ scalar: Unicode.Scalar) throws(FetchPredicateError) -> Unicode.Scalar {
            switch scalar {
            case "t": return "\t"
            case "n": return "\n"
            case "r": return "\r"
            case "f": return "\u{0C}"
            case "a": return "\u{07}"
            case "e": return "\u{1B}"
            case "0": return try codePoint(radix: 8, digits: 3, from: "0")
            case "x":
                if current == "{" {
                    position += 1
                    let value = try codePoint(radix: 16, digits: 8, from: "x")
                    guard current == "}" else { throw refusal("\\x{ is not closed") }
                    position += 1
                    return value
                }
                return try codePoint(radix: 16, digits: 2, exactly: true, from: "x")
            case "u": return try codePoint(radix: 16, digits: 4, exactly: true, from: "u")
            case "U": return try codePoint(radix: 16, digits: 8, exactly: true, from: "U")
            case "c":
                guard let control = current, control.isASCII else { throw refusal("\\c needs a letter after it") }
                position += 1
                return Unicode.Scalar(control.value & 0x1F) ?? "\u{0}"
            case "w", "W", "b", "B":
                throw refusal("\\\(scalar) is ICU's Unicode word characters (letters, marks, digits, connector punctuation), which PostgreSQL's \\\(scalar) does not mean; spell the characters out, like [A-Za-z0-9_]")
            case "p", "P":
                throw refusal("PostgreSQL has no Unicode properties (\\\(scalar){…}); spell the characters out as a set")
            case "1"..."9", "k":
                throw refusal("back references such as \\\(scalar) are not translated")
            default:
                guard !Self.isASCIIAlphanumeric(scalar) else {
                    throw refusal("\\\(scalar) has no PostgreSQL equivalent")
                }
                return scalar
            }
        }

        /// A code point written in `radix` with up to (or exactly) `digits` digits.
        private mutating func codePoint(radix: UInt32, digits: Int, exactly: Bool = false, from letter: String) throws(FetchPredicateError) -> Unicode.Scalar {
            var value: UInt32 = 0, count = 0
            while count < digits, let scalar = current, let digit = UInt32(String(scalar), radix: Int(radix)), scalar.isASCII {
                value = value * radix + digit
                position += 1
                count += 1
            }
            guard count > 0, !exactly || count == digits, let scalar = Unicode.Scalar(value) else {
                throw refusal("\\\(letter) is not followed by a character's code")
            }
            return scalar
        }

        // MARK: Sets

        /// A set after its `[`: characters, ranges and `\d`, `\s` (or their negations), as code point ranges.
        private mutating func bracket() throws(FetchPredicateError) -> String {
            var negated = false
            if current == "^" {
                negated = true
                position += 1
            }
            if current == "]" { throw refusal("a set starting with ']' reads differently in ICU and PostgreSQL; write \\] for the character") }
            var ranges: [ClosedRange<UInt32>] = []
            var pending: Unicode.Scalar?
            while let scalar = current, scalar != "]" {
                if scalar == "[" { throw refusal("sets inside sets and POSIX classes ([[:alpha:]]) are ICU's Unicode sets; spell the characters out") }
                if scalar == "&", peek(1) == "&" { throw refusal("set intersection (&&) is not translated") }
                if scalar == "-", pending != nil, let next = peek(1), next != "]" {
                    position += 1
                    guard next != "-", next != "[" else { throw refusal("set difference (--) is not translated") }
                    guard let low = pending, let high = try setCharacter(), low.value <= high.value else {
                        throw refusal("a range of a set runs backwards or ends in a class")
                    }
                    ranges.append(low.value...high.value)
                    pending = nil
                    continue
                }
                if let character = pending { ranges.append(character.value...character.value) }
                pending = nil
                if scalar == "\\", let next = peek(1), "dDsS".unicodeScalars.contains(next) {
                    position += 2
                    let classRanges = Self.classRanges(next)
                    ranges += next == "D" || next == "S" ? Self.complement(classRanges) : classRanges
                    continue
                }
                pending = try setCharacter()
            }
            guard current == "]" else { throw refusal("a set is not closed") }
            position += 1
            if let character = pending { ranges.append(character.value...character.value) }
            if caseInsensitive { ranges = Self.caseClosure(ranges) }
            return Self.set(ranges, negated: negated)
        }

        /// One character of a set, escapes read as outside one (`\b` is refused there too).
        private mutating func setCharacter() throws(FetchPredicateError) -> Unicode.Scalar? {
            guard let scalar = current else { return nil }
            position += 1
            guard scalar == "\\" else { return scalar }
            guard let escaped = current else { throw refusal("it ends with a lone '\\'") }
            position += 1
            if escaped == "Q" || escaped == "E" { throw refusal("\\Q…\\E inside a set is not translated") }
            return try literalEscape(escaped)
        }

        // MARK: Writing

        /// Pieces in order; under `[c]`, each run of literal characters as a literal string.
        private func literalRuns(_ pieces: [Piece]) -> String {
            var text = "", run: [Unicode.Scalar] = []
            for piece in pieces + [.text("")] {
                switch piece {
                case .literal(let scalar):
                    run.append(scalar)
                case .text(let translated):
                    if !run.isEmpty {
                        text += caseInsensitive ? Self.caseInsensitiveString(run) : run.map(Self.escaped).joined()
                        run = []
                    }
                    text += translated
                }
            }
            return text
        }

        /// A repeated character, or under `[c]` the characters of its case folding; one that folds to several
        /// (`ß`) is matched as ICU matches it, as a literal string (`ß{2}` matches `ssss`).
        private func characterSet(_ characters: [Unicode.Scalar]) -> String {
            guard caseInsensitive else { return characters.map(Self.escaped).joined() }
            let folded = RegularExpressionCharacterSets.caseFold(characters[0])
            guard folded.count == 1 else { return "(?:" + Self.caseInsensitiveString(characters) + ")" }
            return Self.oneOf(RegularExpressionCharacterSets.characters(foldingTo: folded))
        }

        /// A literal string under `[c]`: any text with the same full case folding, character by character
        /// (`ss` is `[sSſ][sSſ]` or `[ßẞ]`).
        private static func caseInsensitiveString(_ run: [Unicode.Scalar]) -> String {
            let folded = run.flatMap(RegularExpressionCharacterSets.caseFold)
            var suffixes = Array(repeating: "", count: folded.count + 1)
            for start in stride(from: folded.count - 1, through: 0, by: -1) {
                var alternatives: [String] = []
                for length in 1...RegularExpressionCharacterSets.longestFold where start + length <= folded.count {
                    let characters = RegularExpressionCharacterSets.characters(foldingTo: Array(folded[start..<start + length]))
                    guard !characters.isEmpty else { continue }
                    alternatives.append(oneOf(characters) + suffixes[start + length])
                }
                suffixes[start] = alternatives.count == 1 ? alternatives[0] : "(?:" + alternatives.joined(separator: "|") + ")"
            }
            return suffixes[0]
        }

        /// `$` as ICU reads it without multiline mode: the end, or before a line terminator that ends the text.
        static let endOfText = "(?=(?:\\u000D\\u000A|" + set(RegularExpressionCharacterSets.lineTerminators, negated: false) + ")?$)"

        private static func classRanges(_ letter: Unicode.Scalar) -> [ClosedRange<UInt32>] {
            letter == "d" || letter == "D" ? RegularExpressionCharacterSets.decimalDigits : RegularExpressionCharacterSets.whitespace
        }

        /// The code points not in `ranges` (ascending and apart, as the Unicode tables give them).
        private static func complement(_ ranges: [ClosedRange<UInt32>]) -> [ClosedRange<UInt32>] {
            var result: [ClosedRange<UInt32>] = [], next: UInt32 = 0
            for range in ranges {
                if range.lowerBound > next { result.append(next...(range.lowerBound - 1)) }
                next = range.upperBound + 1
            }
            if next <= 0x10FFFF { result.append(next...0x10FFFF) }
            return result
        }

        /// `ranges` with every character that has the case folding of one in them (`[a-z]` gains `ſ` and `K`).
        private static func caseClosure(_ ranges: [ClosedRange<UInt32>]) -> [ClosedRange<UInt32>] {
            var added: [ClosedRange<UInt32>] = []
            for group in RegularExpressionCharacterSets.caseGroups
            where group.contains(where: { character in ranges.contains { $0.contains(character.value) } }) {
                added += group.map { $0.value...$0.value }
            }
            return ranges + added
        }

        /// A set of ranges as a bracket expression; NUL is left out, since PostgreSQL's text never holds it.
        static func set(_ ranges: [ClosedRange<UInt32>], negated: Bool) -> String {
            var members = ""
            for range in merged(ranges) {
                let low = max(range.lowerBound, 1)
                guard low <= range.upperBound else { continue }
                members += low == range.upperBound ? escaped(low) : escaped(low) + "-" + escaped(range.upperBound)
            }
            if members.isEmpty { return set([1...0x10FFFF], negated: !negated) }
            return "[" + (negated ? "^" : "") + members + "]"
        }

        /// `ranges` in ascending order, those that overlap or touch joined.
        private static func merged(_ ranges: [ClosedRange<UInt32>]) -> [ClosedRange<UInt32>] {
            var result: [ClosedRange<UInt32>] = []
            for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
                if let last = result.last, range.lowerBound <= last.upperBound + 1 {
                    result[result.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
                } else {
                    result.append(range)
                }
            }
            return result
        }

        /// What matches no character of PostgreSQL's text (NUL is the only one outside this set, and text never holds it).
        private static let never = "[^\\u0001-\\U0010FFFF]"

        private static func oneOf(_ characters: [Unicode.Scalar]) -> String {
            characters.count == 1 ? escaped(characters[0]) : set(characters.map { $0.value...$0.value }, negated: false)
        }

        private static func escaped(_ scalar: Unicode.Scalar) -> String {
            escaped(scalar.value)
        }

        /// A character as PostgreSQL's `\uXXXX` or `\UXXXXXXXX`, so no character of the pattern is read as syntax.
        private static func escaped(_ value: UInt32) -> String {
            guard value != 0 else { return never }
            let hex = String(value, radix: 16, uppercase: true)
            return value <= 0xFFFF
                ? "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                : "\\U" + String(repeating: "0", count: 8 - hex.count) + hex
        }

        private static func isASCIIAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
            scalar.isASCII && (scalar.properties.isAlphabetic || scalar.properties.numericType != nil)
        }
    }
}
