extension FetchPredicate {
    /// How a typed text comparison treats letters: the `[c]`, `[d]` and `[cd]` modifiers of a format.
    ///
    /// ```swift
    /// Session.kind.beginsWith("yo", options: .caseInsensitive)                        // kind BEGINSWITH[c] "yo"
    /// Session.note.contains("cafe", options: [.caseInsensitive, .diacriticInsensitive]) // note CONTAINS[cd] "cafe"
    /// ```
    public struct ComparisonOptions: OptionSet, Sendable, Hashable {
        public let rawValue: Int

        public init(rawValue: Int) {
            self.rawValue = rawValue
        }

        /// `[c]`: "Yoga" matches "yoga".
        public static let caseInsensitive = ComparisonOptions(rawValue: 1 << 0)
        /// `[d]`: "café" matches "cafe".
        public static let diacriticInsensitive = ComparisonOptions(rawValue: 1 << 1)

        /// The modifiers of the predicate tree; spelled out so that the public bits stay free of the folding flags.
        var modifiers: PredicateComparisonOptions {
            var modifiers: PredicateComparisonOptions = []
            if contains(.caseInsensitive) { modifiers.insert(.caseInsensitive) }
            if contains(.diacriticInsensitive) { modifiers.insert(.diacriticInsensitive) }
            return modifiers
        }
    }
}
