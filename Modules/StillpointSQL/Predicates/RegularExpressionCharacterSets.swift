import StillpointCore

/// The Unicode sets that ICU's regular expressions give a meaning to and PostgreSQL's do not, spelt out as code
/// point ranges for ``PostgreSQLRegularExpression``: `\d`, `\s`, the line terminators `.` and `$` stop at, and
/// the characters that `[c]` lets match one another.
///
/// Each is read from the Unicode tables once, on the first MATCHES compiled for PostgreSQL.
///
/// ```swift
/// RegularExpressionCharacterSets.decimalDigits.contains { $0.contains(0x0663) }   // true: ARABIC-INDIC DIGIT THREE
/// RegularExpressionCharacterSets.caseFold("ſ")                                   // "s"
/// ```
enum RegularExpressionCharacterSets {
    /// `\d`: general category Nd, ICU's digits (`٣` is one, `Ⅻ`, a letter number, is not).
    static let decimalDigits: [ClosedRange<UInt32>] = ranges { $0.properties.generalCategory == .decimalNumber }

    /// `\s`: the White_Space property (ICU's `\s` includes U+000B and U+0085, not U+001C).
    static let whitespace: [ClosedRange<UInt32>] = ranges { $0.properties.isWhitespace }

    /// What ICU's `.` does not match and its `$` may stand before at the end: \n, \v, \f, \r, NEL, LS, PS.
    static let lineTerminators: [ClosedRange<UInt32>] = [0x0A...0x0D, 0x85...0x85, 0x2028...0x2029]

    /// The case folding of one character, as `[c]` folds it (``TextFolding``): full folding, so `ß` is `ss`.
    static func caseFold(_ scalar: Unicode.Scalar) -> [Unicode.Scalar] {
        caseFolds[scalar] ?? [scalar]
    }

    /// The characters whose case folding is `folded` (one character or several, as `ss`), itself included
    /// when it is one character: what a `[c]` pattern's character matches in ICU's case-insensitive mode.
    static func characters(foldingTo folded: [Unicode.Scalar]) -> [Unicode.Scalar] {
        let others = foldedCharacters[folded] ?? []
        guard folded.count == 1, !others.contains(folded[0]) else { return others }
        return [folded[0]] + others
    }

    /// The characters that `[c]` lets match one another, each group with one case folding (`s`, `S`, `ſ`).
    static let caseGroups: [[Unicode.Scalar]] = foldedCharacters.keys.map(characters(foldingTo:))

    /// The longest case folding of one character, in characters (`ﬃ` folds to three).
    static let longestFold = 3

    /// Every character that case folding changes, with what it folds to.
    private static let caseFolds: [Unicode.Scalar: [Unicode.Scalar]] = {
        var folds: [Unicode.Scalar: [Unicode.Scalar]] = [:]
        forEachScalar { scalar in
            let properties = scalar.properties
            guard properties.changesWhenCaseFolded || properties.changesWhenCaseMapped else { return }
            let folded = Array(TextFolding.fold(String(scalar), caseInsensitive: true, diacriticInsensitive: false).unicodeScalars)
            if folded != [scalar] { folds[scalar] = folded }
        }
        return folds
    }()

    /// The inverse of ``caseFolds``: for each folding, the characters that fold to it, in code point order.
    private static let foldedCharacters: [[Unicode.Scalar]: [Unicode.Scalar]] = {
        var inverse: [[Unicode.Scalar]: [Unicode.Scalar]] = [:]
        for (scalar, folded) in caseFolds { inverse[folded, default: []].append(scalar) }
        return inverse.mapValues { $0.sorted { $0.value < $1.value } }
    }()

    /// The code points that satisfy `test`, as ascending ranges.
    private static func ranges(where test: (Unicode.Scalar) -> Bool) -> [ClosedRange<UInt32>] {
        var ranges: [ClosedRange<UInt32>] = []
        forEachScalar { scalar in
            guard test(scalar) else { return }
            if let last = ranges.last, last.upperBound + 1 == scalar.value {
                ranges[ranges.count - 1] = last.lowerBound...scalar.value
            } else {
                ranges.append(scalar.value...scalar.value)
            }
        }
        return ranges
    }

    /// Every character of the first two planes: the planes above hold ideographs, tags, variation selectors and
    /// private use, none with case, a decimal digit or white space, so scanning them would only cost time.
    private static func forEachScalar(_ body: (Unicode.Scalar) -> Void) {
        for value in UInt32(0)...0x1FFFF {
            if let scalar = Unicode.Scalar(value) { body(scalar) }
        }
    }
}
