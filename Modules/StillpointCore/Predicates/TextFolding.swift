import Foundation

/// Case and diacritic folding for `[c]`, `[d]` and `[cd]` comparisons, shared by SQL and in-memory evaluation.
///
/// ```swift
/// TextFolding.fold("Café", caseInsensitive: true, diacriticInsensitive: true)   // "cafe"
/// ```
package enum TextFolding {
    /// The name of the SQL function `stillpoint_fold(text, flags)` that every SQLite connection of a store gets.
    package static let sqlFunctionName = "stillpoint_fold"
    /// The SQL functions `stillpoint_lowercase(text)` and `stillpoint_uppercase(text)`, Foundation's case mappings
    /// for the predicate functions `lowercase` and `uppercase`.
    package static let lowercaseFunctionName = "stillpoint_lowercase"
    package static let uppercaseFunctionName = "stillpoint_uppercase"
    /// Flag bits of the second argument of `stillpoint_fold`.
    package static let caseInsensitiveFlag = 1
    package static let diacriticInsensitiveFlag = 2

    /// Folds `text` so that strings differing only in case and/or diacritics become equal.
    package static func fold(_ text: String, caseInsensitive: Bool, diacriticInsensitive: Bool) -> String {
        var options: String.CompareOptions = []
        if caseInsensitive { options.insert(.caseInsensitive) }
        if diacriticInsensitive { options.insert(.diacriticInsensitive) }
        guard !options.isEmpty else { return text }
        // ASCII has no diacritics and folds case to lower case: no need of Foundation's folding, which goes through
        // NSString (imports fold several copies of every text they write).
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            guard caseInsensitive, text.utf8.contains(where: { (0x41...0x5A).contains($0) }) else { return text }
            return String(decoding: text.utf8.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
        }
        return text.folding(options: options, locale: nil)
    }

    /// Whether every folding leaves `text` as it is (ASCII without capital letters, such as most keys), told in
    /// one look: a writer of folded copies then need not fold it once per copy.
    package static func foldsToItself(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 < 0x80 && !(0x41...0x5A).contains($0) }
    }

    /// Folds `text` with the flags of `stillpoint_fold`: 1 = case-insensitive, 2 = diacritic-insensitive, 3 = both.
    package static func fold(_ text: String, flags: Int) -> String {
        fold(text,
             caseInsensitive: flags & caseInsensitiveFlag != 0,
             diacriticInsensitive: flags & diacriticInsensitiveFlag != 0)
    }
}
