import Foundation
import GRDB

/// Case and diacritic folding for `[c]`, `[d]` and `[cd]` comparisons, shared by SQL and in-memory evaluation.
///
/// ```swift
/// TextFolding.fold("Café", caseInsensitive: true, diacriticInsensitive: true)   // "cafe"
/// try dbQueue.write { db in TextFolding.register(in: db) }
/// ```
public enum TextFolding {
    /// The name of the SQL function `stillpoint_fold(text, flags)` that ``register(in:)`` adds.
    static let sqlFunctionName = "stillpoint_fold"
    /// Flag bits of the second argument of `stillpoint_fold`.
    static let caseInsensitiveFlag = 1
    static let diacriticInsensitiveFlag = 2

    /// Folds `text` so that strings differing only in case and/or diacritics become equal.
    public static func fold(_ text: String, caseInsensitive: Bool, diacriticInsensitive: Bool) -> String {
        var options: String.CompareOptions = []
        if caseInsensitive { options.insert(.caseInsensitive) }
        if diacriticInsensitive { options.insert(.diacriticInsensitive) }
        guard !options.isEmpty else { return text }
        return text.folding(options: options, locale: nil)
    }

    /// Folds `text` with the flags of `stillpoint_fold`: 1 = case-insensitive, 2 = diacritic-insensitive, 3 = both.
    static func fold(_ text: String, flags: Int) -> String {
        fold(text,
             caseInsensitive: flags & caseInsensitiveFlag != 0,
             diacriticInsensitive: flags & diacriticInsensitiveFlag != 0)
    }

    /// Adds the SQL function `stillpoint_fold(text, flags)` to a connection; call it on every new connection.
    ///
    /// The function returns NULL for NULL, folds text, and returns other values unchanged.
    public static func register(in db: Database) {
        db.add(function: DatabaseFunction(sqlFunctionName, argumentCount: 2, pure: true) { values in
            switch values[0].storage {
            case .null:
                return nil
            case .string(let text):
                let flags = Int.fromDatabaseValue(values[1]) ?? 0
                return fold(text, flags: flags)
            default:
                // Non-text values compare as they are, like the in-memory evaluator does.
                return values[0]
            }
        })
    }
}
