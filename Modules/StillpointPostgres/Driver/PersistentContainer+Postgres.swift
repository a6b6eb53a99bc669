import StillpointCore

extension PersistentContainer {
    /// Opens the PostgreSQL database `uri` names as a store: creating the schema's tables or adding what they
    /// lack, or (with `access: .readOnly`) checking that they are there, writing nothing.
    ///
    /// `uri` is a libpq connection URI or `key=value` pairs; libpq's environment variables (`PGHOST`,
    /// `PGPASSWORD`, ...) fill in what it leaves out.
    ///
    /// ```swift
    /// let container = try PersistentContainer(schema: schema, postgres: "postgresql://app@db.example/practice")
    /// ```
    ///
    /// - Throws: ``StoreError/serverUnreachable(path:detail:)`` naming the server (never the password) when it
    ///   cannot be reached, and the other ``StoreError``s of an open.
    public convenience init(schema: Schema, postgres uri: String, access: StoreAccess = .readWrite) throws {
        self.init(store: try PostgresStore(uri: uri, schema: schema, access: access))
    }
}
