/// What a ``SchemaVersion``'s step may do to a store, the same on every store: read and update rows of any table
/// the store holds (the columns of attributes removed from the schema included), and run SQL that both stores
/// understand. Everything it does is part of the open's transaction, and is not recorded in the change history.
///
/// ```swift
/// SchemaVersion(3) { migration in
///     try migration.execute(#"UPDATE "Session" SET "kind" = 'sitting' WHERE "kind" = 'zazen'"#)
/// }
/// ```
public final class MigrationContext {
    private let connection: any MigrationConnection

    package init(_ connection: any MigrationConnection) {
        self.connection = connection
    }

    /// The `_id` and the values of `columns` of every row of the table `entity`, in `_id` order. Columns of the
    /// schema's attributes are read as their type; others as stored (integer, double, text or binary).
    public func rows(of entity: String, columns: [String]) throws -> [MigrationRow] {
        try connection.rows(of: entity, columns: columns)
    }

    /// Sets `values` (by column name) in the row `id` of the table `entity`.
    public func update(_ entity: String, id: Int64, _ values: [String: AttributeValue]) throws {
        guard !values.isEmpty else { return }
        try connection.update(entity, id: id, values: values)
    }

    /// Runs SQL without parameters: quote names with double quotes, and keep to what SQLite and PostgreSQL share.
    public func execute(_ sql: String) throws {
        try connection.execute(sql)
    }

    /// The names of the columns the table `entity` has now (none when there is no such table): a step that reads a
    /// column an older release may never have made asks first.
    ///
    /// ```swift
    /// if try migration.columns(of: "Session").contains("minutes") { ... }
    /// ```
    public func columns(of entity: String) throws -> Set<String> {
        try connection.columns(of: entity)
    }
}

/// One row read by ``MigrationContext/rows(of:columns:)``.
public struct MigrationRow: Sendable, Hashable {
    public let id: Int64
    public let values: [String: AttributeValue]

    public init(id: Int64, values: [String: AttributeValue]) {
        self.id = id
        self.values = values
    }

    /// The value of `column`, `.null` when it was not read.
    public subscript(column: String) -> AttributeValue {
        values[column] ?? .null
    }
}

/// A store's side of ``MigrationContext``, inside the open's transaction.
package protocol MigrationConnection {
    func rows(of table: String, columns: [String]) throws -> [MigrationRow]
    func update(_ table: String, id: Int64, values: [String: AttributeValue]) throws
    func execute(_ sql: String) throws
    func columns(of table: String) throws -> Set<String>
}

extension Schema {
    /// The steps to run for a store recorded at `recorded` (`nil`: a store made by this open), or an error when
    /// the store is of a newer version. Empty when the schema declares no versions.
    package func stepsToRun(from recorded: Int?, path: String) throws -> [SchemaVersion] {
        guard let latest = latestVersion, let recorded else { return [] }
        guard recorded <= latest else {
            throw StoreError.newerSchemaVersion(path: path, version: recorded, latest: latest)
        }
        return versions.filter { $0.number > recorded }
    }

    /// The table in which a store records its schema version, when the schema declares versions.
    package static let versionTable = "_stillpoint_schema_version"
}
