import StillpointCore

/// What PostgreSQL's store reports of its own through ``StoreError/driver(path:error:)``: a server that cannot
/// be reached or has no such database, the server's errors and cancellations, a URI libpq cannot read.
///
/// ```swift
/// throw StoreError.driver(path: path, error: PostgresStoreError.noDatabase(database: "practice"))
/// throw StoreError.noDatabase(path: path, database: "practice")   // the same
/// ```
public enum PostgresStoreError: StoreDriverError {
    /// The server could not be reached or refused the connection.
    case serverUnreachable(detail: String)
    /// A connection that stood was lost with its statement (the server stopped, restarted or ended it): nothing of
    /// the transaction was kept, and the next one connects again.
    case connectionLost(detail: String)
    /// The server has no database of the name the URI gives: the server's counterpart of a store file that does
    /// not exist.
    case noDatabase(database: String)
    /// The server reported an error (`code` is PostgreSQL's SQLSTATE, when it gave one).
    case server(code: String?, message: String)
    /// The server cancelled a statement this program did not ask to stop: a `statement_timeout` (in the URI's
    /// `options`, the role's or the database's settings) ran out, or an administrator cancelled it
    /// (`pg_cancel_backend`). `message` is the server's; nothing of the statement's transaction was kept.
    case serverCancelled(message: String)
    /// The location cannot be read as a PostgreSQL URI (libpq cannot parse it).
    case invalidLocation(detail: String)

    public func message(at path: String) -> String {
        switch self {
        case .serverUnreachable(let detail):
            return "cannot connect to the PostgreSQL server at \(path): \(detail); check that the server runs and accepts "
                + "connections there, and the URI's host, port, database, user and password (or PGPASSWORD)"
        case .connectionLost(let detail):
            return "lost the connection to the PostgreSQL server at \(path) (\(detail)), so nothing of that transaction was "
                + "kept; the server stopped or restarted: try again once it is back"
        case .noDatabase(let database):
            return "the database \(database) of \(path) does not exist on the PostgreSQL server; create it first "
                + "(createdb \(database)), or name an existing database"
        case .server(let code, let message):
            return "\(path): PostgreSQL error" + (code.map { " \($0)" } ?? "") + ": \(message)"
        case .serverCancelled(let message):
            return "\(path): the PostgreSQL server cancelled a statement (\(message)), so nothing of it was kept; a "
                + "statement_timeout ran out or an administrator stopped it: raise the timeout (the URI's "
                + "options=-c statement_timeout=..., or the role's) or try again later"
        case .invalidLocation(let detail):
            return "\(path) is not a PostgreSQL connection URI libpq can read (\(detail)); write it as "
                + "postgresql://user@host:port/database?parameter=value"
        }
    }

    public var kind: StoreFailureKind {
        switch self {
        case .serverUnreachable, .connectionLost: .unavailable
        case .noDatabase: .noInput
        case .server: .ioError
        case .serverCancelled: .temporaryFailure
        case .invalidLocation: .usage
        }
    }
}

/// The spellings of PostgreSQL's errors from before they were the driver's, so that code that makes them compiles.
extension StoreError {
    /// ``PostgresStoreError/serverUnreachable(detail:)`` at `path`.
    public static func serverUnreachable(path: String, detail: String) -> StoreError {
        .driver(path: path, error: PostgresStoreError.serverUnreachable(detail: detail))
    }

    /// ``PostgresStoreError/connectionLost(detail:)`` at `path`.
    public static func connectionLost(path: String, detail: String) -> StoreError {
        .driver(path: path, error: PostgresStoreError.connectionLost(detail: detail))
    }

    /// ``PostgresStoreError/noDatabase(database:)`` at `path`.
    public static func noDatabase(path: String, database: String) -> StoreError {
        .driver(path: path, error: PostgresStoreError.noDatabase(database: database))
    }

    /// ``PostgresStoreError/server(code:message:)`` at `path`.
    public static func server(path: String, code: String?, message: String) -> StoreError {
        .driver(path: path, error: PostgresStoreError.server(code: code, message: message))
    }

    /// ``PostgresStoreError/serverCancelled(message:)`` at `path`.
    public static func serverCancelled(path: String, message: String) -> StoreError {
        .driver(path: path, error: PostgresStoreError.serverCancelled(message: message))
    }

    /// ``PostgresStoreError/invalidLocation(detail:)`` at `path`.
    public static func invalidLocation(path: String, detail: String) -> StoreError {
        .driver(path: path, error: PostgresStoreError.invalidLocation(detail: detail))
    }
}
