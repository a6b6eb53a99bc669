extension FetchRequest {
    /// The `SELECT` a store speaking `dialect` runs for this request's objects, and how many arguments it binds,
    /// made without a store: for the predicate fuzzer, which checks that every parsed predicate compiles in each
    /// store's SQL (or is refused with a ``FetchPredicateError`` saying why).
    ///
    /// ```swift
    /// let (sql, argumentCount) = try FetchRequest(entity, predicate: predicate).statement(in: dialect)
    /// ```
    @_spi(Fuzzing)
    public func statement(in dialect: SQLDialect) throws -> (sql: String, argumentCount: Int) {
        let statement = try dialect.select(self, columns: dialect.objectColumns(of: entity))
        return (statement.sql, statement.arguments.count)
    }
}
