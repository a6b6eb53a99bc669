import StillpointCore

/// A failure of the PostgreSQL server or of the connection to it, in one line that names where, never with a
/// password.
///
/// ```swift
/// do { _ = try PostgresConnection(uri: "postgresql://app@db.example:5433/practice") }
/// catch let error as PostgresError { print(error) }
/// // cannot reach PostgreSQL at db.example:5433 (database practice, user app): could not translate host name ...;
/// // check that the server runs and the URI's host, port and database
/// ```
package struct PostgresError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server's five-character SQLSTATE (`40001` for a serialization failure), when the server sent one.
    package var sqlState: String?
    /// libpq's or the server's message, trimmed to one line.
    package var message: String
    /// The server and database the error concerns (see ``PostgresTarget``).
    package var target: String
    /// Whether the connection could not be made (the server unreachable, or refusing it), rather than a statement failing.
    package var isConnectionFailure: Bool
    /// The database libpq asked for, for a connection that could not be made (the URI's, or a default such as the user's name).
    package var database: String?
    /// Whether a connection that stood was lost with the statement: the server stopped, restarted or ended it.
    /// Nothing of the statement's transaction was kept, and a new connection may work once the server is back.
    package var isConnectionLost = false

    package init(sqlState: String? = nil, message: String, target: String, connecting: Bool = false, database: String? = nil) {
        self.sqlState = sqlState
        self.isConnectionFailure = connecting || sqlState == Self.cannotConnect
        self.database = database
        self.message = message.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }.joined(separator: "; ")
        self.target = target
    }

    package var description: String {
        if isConnectionFailure {
            return "cannot connect to PostgreSQL at \(target): \(message); check that the server runs and the URI's host, "
                + "port, database and user"
        }
        return "PostgreSQL at \(target): \(message)" + (sqlState.map { " (SQLSTATE \($0))" } ?? "")
    }

    /// SQLSTATE `08001`: the client could not establish the connection.
    package static let cannotConnect = "08001"

    /// SQLSTATE `3D000` (invalid_catalog_name): the server has no database of the name asked for.
    package static let noSuchDatabase = "3D000"

    /// The server refused the connection because the database it names does not exist.
    package var isMissingDatabase: Bool { isConnectionFailure && sqlState == Self.noSuchDatabase }

    /// Whether SQLSTATE says the connection ended: class `08` (connection_exception), or `57P01` to `57P03`
    /// (admin_shutdown, crash_shutdown, cannot_connect_now: the server stops or starts).
    package static func endsConnection(_ sqlState: String?) -> Bool {
        guard let sqlState else { return false }
        return sqlState.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains(sqlState)
    }

    /// The statement was cancelled (`PQcancel`, a statement timeout).
    package var isCancellation: Bool { sqlState == "57014" }
    /// The server refused a right: SQLSTATE `42501` (insufficient_privilege), or `3F000` (invalid_schema_name: no
    /// schema of the `search_path` the role may use to create in).
    package var isMissingRight: Bool { sqlState == "42501" || sqlState == "3F000" }
    /// A unique constraint was violated.
    package var isUniqueViolation: Bool { sqlState == "23505" }

    /// Runs `body`, turning a foreign key the server refused into the save error that says what happened.
    package static func mappingBrokenReferences<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as PostgresError where error.sqlState == "23503" /* foreign_key_violation */ {
            throw SaveError.brokenReference(error.message)
        }
    }
}
