import GRDB
import StillpointCore

/// The SQL functions every connection of a store gets, so that predicates compile to SQL.
enum SQLFunctions {
    static func register(in db: Database) {
        registerFold(in: db)
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
