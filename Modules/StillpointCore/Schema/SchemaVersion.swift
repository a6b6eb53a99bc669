/// One version of a schema, in the ordered list a ``Schema`` declares, with an optional step that brings a
/// store's data from the version before (see <doc:Migrations>).
///
/// A store records the version that last opened it for writing. An open runs, in its one transaction and after the
/// tables were brought to the schema, the steps of the versions newer than the recorded one, in order, then records
/// the latest: each step runs once per store, and a failing step leaves the store as it was. A new store is made at
/// the latest version and runs no step. A store recorded at a version newer than the schema's latest is refused
/// (``StoreError/newerSchemaVersion(path:version:latest:)``).
///
/// ```swift
/// let schema = try Schema([Session.self], versions: [
///     SchemaVersion(1),
///     SchemaVersion(2) { migration in
///         // `minutes` left the schema in version 2: its column and values are still there to read.
///         for row in try migration.rows(of: "Session", columns: ["minutes"]) {
///             if case .integer(let minutes) = row["minutes"] {
///                 try migration.update("Session", id: row.id, ["duration": .double(Double(minutes) * 60)])
///             }
///         }
///     },
/// ])
/// ```
public struct SchemaVersion: Sendable {
    /// The version's number: the list's numbers increase, from 1.
    public let number: Int
    /// What the version changes in the data, beyond what the schema's declarations change.
    public let step: (@Sendable (MigrationContext) throws -> Void)?

    public init(_ number: Int, step: (@Sendable (MigrationContext) throws -> Void)? = nil) {
        self.number = number
        self.step = step
    }
}
