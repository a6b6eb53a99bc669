import StillpointCore

/// The dialects of the built-in stores, which their modules and the modules that check a predicate for every
/// store (a manifest's `where:`) share without linking either database's library.
///
/// ```swift
/// let fragment = try predicate.sqlFragment(in: .postgreSQL) { .column($0, type: .string) }
/// for dialect in SQLDialect.builtInStores { _ = try predicate.sqlFragment(in: dialect, resolvingKeysWith: resolve) }
/// ```
extension SQLDialect {
    /// SQLite's: `?` parameters and the functions each connection registers.
    package static let sqlite = SQLDialect(parameterStyle: .questionMark, spelling: SQLiteSpelling())

    /// PostgreSQL's: `$1` parameters, typed; text folded into shadow columns.
    package static let postgreSQL = SQLDialect(parameterStyle: .numbered, spelling: PostgreSQLSpelling())

    /// Every built-in store's dialect.
    package static let builtInStores = [sqlite, postgreSQL]
}
