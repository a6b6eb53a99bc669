import StillpointCore

extension FetchRequest {
    /// The `SELECT` PostgreSQL's store runs for this request's objects, and how many arguments it binds, made
    /// without a server: for the predicate fuzzer, which checks that every parsed predicate compiles for
    /// PostgreSQL as it does for SQLite (or is refused with a ``FetchPredicateError`` saying why).
    ///
    /// ```swift
    /// let (sql, argumentCount) = try FetchRequest(entity, predicate: predicate).postgreSQLStatement()
    /// ```
    @_spi(Fuzzing)
    public func postgreSQLStatement() throws -> (sql: String, argumentCount: Int) {
        let dialect = SQLDialect.postgreSQL
        let statement = try dialect.select(self, columns: dialect.objectColumns(of: entity))
        return (statement.sql, statement.arguments.count)
    }
}
