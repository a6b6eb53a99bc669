import StillpointCore

/// PostgreSQL's locations: a database named by a libpq connection URI (`postgresql://user@host:5432/practice`) or
/// `key=value` pairs; libpq's environment variables (`PGHOST`, `PGPASSWORD`, ...) fill in the rest.
///
/// ```swift
/// let container = try PersistentContainer(schema: schema, location: .postgres("postgresql://app@db.example/practice"))
/// StoreLocation.postgres("postgresql://app:s3cret@db.example/practice").displayPath
/// // "postgresql://app:***@db.example/practice"
/// ```
extension StoreLocation {
    /// The scheme of ``postgres(_:)`` locations.
    public static let postgresScheme = "postgresql"

    /// A PostgreSQL database, opened by `PersistentContainer(schema:location:)` as by
    /// `PersistentContainer(schema:postgres:)`.
    public static func postgres(_ uri: String) -> StoreLocation {
        registerPostgres
        return StoreLocation(scheme: postgresScheme, address: uri)
    }

    /// The URI of a ``postgres(_:)`` location; `nil` for every other.
    public var postgresURI: String? {
        scheme == Self.postgresScheme ? address : nil
    }

    /// Registers PostgreSQL's opener, once, when the first PostgreSQL location is made.
    private static let registerPostgres: Void = register(scheme: postgresScheme) { location, schema, access in
        try PostgresStore(uri: location.address, schema: schema, access: access)
    }

    /// Whether `name` (a `--store`, a manifest's `store:`) names a PostgreSQL database rather than a file: a URI
    /// whose scheme is `postgresql://` or `postgres://` in any case, or libpq's `keyword=value` pairs (a name that
    /// starts with a word and `=`, as psql reads it). A file of such a name is written `./host=x.sqlite`.
    ///
    /// ```swift
    /// StoreLocation.isPostgresName("PostgreSQL://db.example/practice")          // true
    /// StoreLocation.isPostgresName("host=db.example dbname=practice")           // true
    /// StoreLocation.isPostgresName("practice.sqlite")                           // false
    /// ```
    package static func isPostgresName(_ name: String) -> Bool {
        postgresSchemeLength(of: name) != nil || name.firstMatch(of: /^\s*[A-Za-z_]+\s*=/) != nil
    }

    /// `name` as libpq reads it: a URI's scheme in lower case. RFC 3986 makes schemes case-insensitive, but
    /// libpq recognises only `postgresql://` and `postgres://` as written (`uri_prefix_length` in fe-connect.c),
    /// and would read `PostgreSQL://...` as `keyword=value` pairs, quoting it whole in its error.
    package static func libpqForm(of name: String) -> String {
        guard let length = postgresSchemeLength(of: name) else { return name }
        return name.prefix(length).lowercased() + name.dropFirst(length)
    }

    /// The length of `text`'s `postgresql://` or `postgres://`, in any case.
    private static func postgresSchemeLength(of text: String) -> Int? {
        ["postgresql://", "postgres://"].first { text.prefix($0.count).lowercased() == $0 }?.count
    }
}
