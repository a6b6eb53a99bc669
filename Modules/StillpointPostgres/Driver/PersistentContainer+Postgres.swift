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

    /// Opens `location` with the store module it needs: PostgreSQL here, SQLite in the core.
    ///
    /// ```swift
    /// let container = try PersistentContainer.opening(schema: schema, location: .postgres(uri))
    /// ```
    public static func opening(schema: Schema, location: StoreLocation, access: StoreAccess = .readWrite) throws -> PersistentContainer {
        switch location {
        case .postgres(let uri): return try PersistentContainer(schema: schema, postgres: uri, access: access)
        case .file, .inMemory: return try PersistentContainer(schema: schema, location: location, access: access)
        }
    }
}
