// Text comparisons of string attributes, optional or not: BEGINSWITH, CONTAINS, ENDSWITH and LIKE, with the
// `[c]`/`[d]` modifiers as options. A missing value matches none of them.

extension Attribute where Value == String {
    /// Matches objects whose attribute starts with `prefix`.
    ///
    /// ```swift
    /// Session.kind.beginsWith("yo")                             // kind BEGINSWITH "yo"
    /// Session.kind.beginsWith("Yo", options: .caseInsensitive) // kind BEGINSWITH[c] "Yo"
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
}

extension Attribute where Value == String? {
    /// Matches objects whose optional attribute has a value that starts with `prefix`.
    ///
    /// ```swift
    /// Session.note.beginsWith("knee", options: .caseInsensitive)   // note BEGINSWITH[c] "knee"
    /// ```
    public func beginsWith(_ prefix: String, options: FetchPredicate.ComparisonOptions = []) -> FetchPredicate {
        comparison(.beginsWith, .value(.string(prefix)), options: options)
    }

    /// Matches objects whose optional attribute has a value that contains `text`.
    public func contains(_ text: String, options: FetchPredicate.ComparisonOptions = []) -> FetchPredicate {
        comparison(.contains, .value(.string(text)), options: options)
    }

    /// Matches objects whose optional attribute has a value that ends with `suffix`.
    public func endsWith(_ suffix: String, options: FetchPredicate.ComparisonOptions = []) -> FetchPredicate {
        comparison(.endsWith, .value(.string(suffix)), options: options)
    }

    /// Matches objects whose optional attribute has a value that matches `pattern` (`*`, `?` as wildcards).
    public func like(_ pattern: String, options: FetchPredicate.ComparisonOptions = []) -> FetchPredicate {
        comparison(.like, .value(.string(pattern)), options: options)
    }
}
