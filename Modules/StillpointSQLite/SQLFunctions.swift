import GRDB
import StillpointCore

/// The SQL functions every connection of a store gets, so that predicates compile to SQL.
enum SQLFunctions {
    static func register(in db: Database) {
        registerFold(in: db)
        registerCaseMapping(in: db)
        registerMatches(in: db)
    }

    /// Adds `stillpoint_matches(text, pattern, flags)` (``RegularExpressionMatch``, for `MATCHES`): NULL when
    /// either is NULL or not text, or when the pattern isn't a regular expression; else 1 or 0.
    static func registerMatches(in db: Database) {
        db.add(function: DatabaseFunction(RegularExpressionMatch.sqlFunctionName, argumentCount: 3, pure: true) { values in
            guard case .string(let text) = values[0].storage, case .string(let pattern) = values[1].storage else { return nil }
            return RegularExpressionMatch.matches(text, pattern: pattern, flags: Int.fromDatabaseValue(values[2]) ?? 0)
        })
    }

    /// Adds `stillpoint_lowercase(text)` and `stillpoint_uppercase(text)` (Foundation's `lowercased(with:)` and
    /// `uppercased(with:)`, as the evaluator, for the predicate functions `lowercase` and `uppercase`): NULL for
    /// NULL, other values unchanged.
    static func registerCaseMapping(in db: Database) {
        let mappings: [(String, @Sendable (String) -> String)] = [
            (TextFolding.lowercaseFunctionName, { $0.lowercased(with: nil) }), (TextFolding.uppercaseFunctionName, { $0.uppercased(with: nil) }),
        ]
        for (name, map) in mappings {
            db.add(function: DatabaseFunction(name, argumentCount: 1, pure: true) { values in
                guard case .string(let text) = values[0].storage else { return values[0] }
                return map(text)
            })
        }
    }

    /// Adds `stillpoint_fold(text, flags)` (``TextFolding``'s folding, for `[c]`/`[d]` comparisons): NULL for
    /// NULL, text folded, other values unchanged.
    static func registerFold(in db: Database) {
        db.add(function: DatabaseFunction(TextFolding.sqlFunctionName, argumentCount: 2, pure: true) { values in
            switch values[0].storage {
            case .null:
                return nil
            case .string(let text):
                let flags = Int.fromDatabaseValue(values[1]) ?? 0
                return TextFolding.fold(text, flags: flags)
            default:
                // Non-text values compare as they are, like the in-memory evaluator does.
                return values[0]
            }
        })
    }
}
