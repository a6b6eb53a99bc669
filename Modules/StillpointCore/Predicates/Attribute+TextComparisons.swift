// Text comparisons of string attributes, optional or not: BEGINSWITH, CONTAINS, ENDSWITH, LIKE and MATCHES, with the
// `[c]`/`[d]` modifiers as options. A missing value matches none of them.

/// The values of text attributes, optional or not: `String` and `String?`, whose attributes take the text
/// comparisons.
public protocol TextAttributeValue: AttributeValueConvertible {}

extension String: TextAttributeValue {}
extension Optional: TextAttributeValue where Wrapped == String {}

extension Attribute where Value: TextAttributeValue {
    /// Matches objects whose attribute starts with `prefix`.
    ///
    /// ```swift
    /// Session.kind.beginsWith("yo")                                 // kind BEGINSWITH "yo"
    /// Session.note.beginsWith("Knee", options: .caseInsensitive)   // note BEGINSWITH[c] "Knee"
    /// ```
    public func beginsWith(_ prefix: String, options: FetchPredicate.ComparisonOptions = []) -> FetchPredicate {
        comparison(.beginsWith, .value(.string(prefix)), options: options)
    }

    /// Matches objects whose attribute contains `text`.
    ///
    /// ```swift
    /// Session.source.contains("health", options: [.caseInsensitive, .diacriticInsensitive]) // source CONTAINS[cd] "health"
    /// ```
    public func contains(_ text: String, options: FetchPredicate.ComparisonOptions = []) -> FetchPredicate {
        comparison(.contains, .value(.string(text)), options: options)
    }

    /// Matches objects whose attribute ends with `suffix`.
    public func endsWith(_ suffix: String, options: FetchPredicate.ComparisonOptions = []) -> FetchPredicate {
        comparison(.endsWith, .value(.string(suffix)), options: options)
    }

    /// Matches objects whose attribute matches `pattern`, where `*` stands for any run of characters, `?` for one
    /// character, and `\*`, `\?` for themselves.
    ///
    /// ```swift
    /// Session.key.like("csv-*")   // key LIKE "csv-*"
    /// ```
    public func like(_ pattern: String, options: FetchPredicate.ComparisonOptions = []) -> FetchPredicate {
        comparison(.like, .value(.string(pattern)), options: options)
    }

    /// Matches objects whose whole attribute matches the ICU regular expression `pattern` (`MATCHES`); on
    /// PostgreSQL a few constructs are refused, saying why (see <doc:PredicateFormat>).
    ///
    /// ```swift
    /// Session.note.matches("room \\d+", options: .caseInsensitive)   // note MATCHES[c] "room \\d+"
    /// ```
    public func matches(_ pattern: String, options: FetchPredicate.ComparisonOptions = []) -> FetchPredicate {
        comparison(.matches, .value(.string(pattern)), options: options)
    }
}
