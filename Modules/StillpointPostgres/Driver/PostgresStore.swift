import Dispatch
import Foundation
import StillpointCore
import StillpointSQL

/// The PostgreSQL store: the seam's driver over libpq connections to one database.
///
/// Reads take a connection from a pool (one per concurrent reader, kept for the next), each read a
/// `REPEATABLE READ` snapshot; writes go through one connection at a time, as SQLite's do, so that this
/// process's change sets are published in commit order. Other processes' commits ring `NOTIFY`, which
/// ``otherProcessCommits(every:)`` listens for. Setting a context's interrupt flag cancels its running
/// statement on the server (`PQcancel`).
///
/// ```swift
/// let store = try PostgresStore(uri: "postgresql://app@db.example/practice", schema: schema)
/// let container = PersistentContainer(store: store)
/// ```
package final class PostgresStore: StoreDriver {
    package let location: StoreLocation
    package let schema: Schema
    package let access: StoreAccess
    package let processToken = UUID().uuidString
    package var dialect: SQLDialect { .postgreSQL }

    private let uri: String
    /// ``location``'s display path, made once: messages name the store without its password.
    private let path: String
    private let idleReaders = LockedState<[PostgresConnection]>([])
    /// The one writing connection, held for the whole of each write transaction.
    private let writer: LockedState<PostgresConnection?>
    /// Where asynchronous writes wait their turn without holding a task's thread.
    private let writeQueue = DispatchQueue(label: "stillpoint.postgres.writer")
    private let isClosed = LockedState(false)
    private let listenerObservers = LockedState<[@Sendable (PostgresListenerEvent) -> Void]>([])
    /// The statements this store's readers and writer have sent (the commit listener's are not counted).
    package let statements: PostgresStatementCounter
    /// Rows per `FETCH` of the store's cursors (``PostgresCursor/chunk`` unless a test asks for a few).
    private let rowsPerFetch: Int

    /// Connects to the database `uri` names, creating the schema's tables or adding what they lack (read-write),
    /// or checking that they are all there (read-only).
    ///
    /// - Throws: ``StoreError/invalidLocation(path:detail:)`` when libpq cannot read `uri`, would misread it (a
    ///   password holding `/` or `@`), or refuses a parameter's value (a port that is not a number, `sslmode=bogus`),
    ///   ``StoreError/serverUnreachable(path:detail:)`` when the server cannot be reached,
    ///   ``StoreError/noDatabase(path:database:)`` when it has no database of the URI's name,
    ///   ``StoreError/noStore(path:)`` or ``StoreError/needsUpgrade(path:)`` for a read-only open of a database
    ///   that lacks the store's tables, ``StoreError/newerVersion(path:version:supported:)`` for a store written
    ///   by a newer Stillpoint, ``StoreError/permissionDenied(path:detail:)`` for a role without a right the open
    ///   needs (``PostgresSchema/checkRights(on:access:path:)``).
    package init(uri: String, schema: Schema, access: StoreAccess = .readWrite, rowsPerFetch: Int = PostgresCursor.chunk) throws {
        self.location = .postgres(uri)
        let path = location.displayPath
        if let misreading = PostgresTarget.misreading(of: uri) {
            throw StoreError.invalidLocation(path: path, detail: misreading)
        }
        let uri = StoreLocation.libpqForm(of: uri)
        self.uri = uri
        self.schema = schema
        self.access = access
        self.path = path
        self.rowsPerFetch = rowsPerFetch
        let statements = PostgresStatementCounter()
        self.statements = statements
        let connection = try Self.connect(uri, path: path, countingIn: statements, rowsPerFetch: rowsPerFetch)
        try Self.translating(path: path) {
            let layout = PostgresSchema(schema)
            try layout.checkRights(on: connection, access: access, path: path)
            switch access {
            case .readWrite: try layout.create(on: connection, path: path)
            case .readOnly: try layout.checkReadable(on: connection, path: path)
            }
        }
        writer = LockedState(access == .readWrite ? connection : nil)
        if access == .readOnly { idleReaders.withLock { $0.append(connection) } }
    }

    // MARK: Transactions

    package func reading<T>(interruptedBy flag: InterruptFlag?, _ body: (any StoreReader) throws -> T) throws -> T {
        let connection = try checkOutReader()
        var reusable = true
        defer { if reusable { checkIn(connection) } }
        do {
            return try watching(connection, flag) {
                try PostgresStoreConnection.reading(on: connection) { reader in try body(reader) }
            }
        } catch {
            reusable = connection.isHealthy
            throw error
        }
    }

    /// Holds a `REPEATABLE READ` transaction open on a reader's connection (``PostgresGeneration``).
    package func holdGeneration() throws -> any StoreGeneration {
        let connection = try checkOutReader()
        return try Self.translating(path: path) {
            do {
                return try PostgresGeneration(store: self, connection: connection)
            } catch {
                _ = try? connection.execute("ROLLBACK")
                if connection.isHealthy { checkIn(connection) }
                throw error
            }
        }
    }

    package func writing<T>(interruptedBy flag: InterruptFlag?, _ body: (any StoreWriter) throws -> T) throws -> T {
        guard access == .readWrite else { throw StoreError.readOnly(path: path) }
        return try writer.withLock { writer in
            guard !isClosed.withLock({ $0 }) else {
                throw StoreError.server(path: path, code: nil, message: "the store was closed")
            }
            // A connection the server dropped (stopped or restarted while it lay idle) is replaced before the write,
            // and one lost during a write is replaced by the next: the writer follows the server as it comes back.
            if let connection = writer, !connection.isStillConnected { writer = nil }
            let connection: PostgresConnection
            if let kept = writer {
                connection = kept
            } else {
                connection = try Self.connect(uri, path: path, countingIn: statements, rowsPerFetch: rowsPerFetch)
                writer = connection
            }
            do {
                return try watching(connection, flag) {
                    try PostgresStoreConnection.writing(on: connection) { store in try body(store) }
                }
            } catch {
                if !connection.isHealthy { writer = nil }
                throw error
            }
        }
    }

    package func writingAsync<T: Sendable>(interruptedBy flag: InterruptFlag?,
                                           _ body: @escaping @Sendable (any StoreWriter) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            writeQueue.async {
                continuation.resume(with: Result { try self.writing(interruptedBy: flag, body) })
            }
        }
    }

    /// Runs `body` with `flag` cancelling its statement on the server, and the server's errors as ``StoreError``.
    func watching<T>(_ connection: PostgresConnection, _ flag: InterruptFlag?, _ body: () throws -> T) throws -> T {
        guard !isClosed.withLock({ $0 }) else {
            throw StoreError.server(path: path, code: nil, message: "the store was closed")
        }
        return try Self.translating(path: path, interruptedBy: flag) {
            guard let flag else { return try body() }
            let token = connection.cancelToken
            return try flag.whileWatched(cancelling: { token.cancel() }, body)
        }
    }

    // MARK: Connections

    private func checkOutReader() throws -> PostgresConnection {
        // An idle connection the server dropped meanwhile is let go rather than failing the read.
        while let idle = idleReaders.withLock({ $0.popLast() }) {
            if idle.isStillConnected { return idle }
        }
        return try Self.connect(uri, path: path, countingIn: statements, rowsPerFetch: rowsPerFetch)
    }

    func checkIn(_ connection: PostgresConnection) {
        guard !isClosed.withLock({ $0 }) else { return }
        idleReaders.withLock { $0.append(connection) }
    }

    static func connect(_ uri: String, path: String, countingIn statements: PostgresStatementCounter? = nil,
                        rowsPerFetch: Int = PostgresCursor.chunk) throws -> PostgresConnection {
        do {
            let connection = try PostgresConnection(uri: uri, countingIn: statements)
            connection.rowsPerFetch = rowsPerFetch
            return connection
        } catch where error.isMissingDatabase {
            throw StoreError.noDatabase(path: path, database: error.database ?? PostgresTarget(uri: uri).database ?? "?")
        } catch {
            // libpq quotes a URI it cannot parse, password and all.
            let detail = StoreLocation.redacting(error.message, passwordsOf: uri)
            // A parameter's value libpq refuses (sslmode=bogus) is a mistake in the URI, not an unreachable server.
            if PostgresTarget.isRefusedParameter(error.message) { throw StoreError.invalidLocation(path: path, detail: detail) }
            throw StoreError.serverUnreachable(path: path, detail: detail)
        }
    }

    /// The server's errors as ``StoreError``; the store's own errors pass through.
    ///
    /// A cancelled statement is `CancellationError` only when `flag` asked for it: one the server cancelled by
    /// itself (a `statement_timeout`, `pg_cancel_backend`) is ``StoreError/serverCancelled(path:message:)``, so
    /// that it is not taken for the user's Ctrl-C or an operation's cancellation.
    static func translating<T>(path: String, interruptedBy flag: InterruptFlag? = nil, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as PostgresError where error.isCancellation {
            if flag?.isSet == true { throw CancellationError() }
            throw StoreError.serverCancelled(path: path, message: error.message.replacing(#/^ERROR:\s+/#, with: ""))
        } catch let error as PostgresError where error.isConnectionLost {
            throw StoreError.connectionLost(path: path, detail: error.message)
        } catch let error as PostgresError where error.isMissingRight {
            // A right revoked after the open's check, or one it does not know of: no I/O error, and the way out.
            throw StoreError.permissionDenied(path: path, detail: "\(error.message) (SQLSTATE \(error.sqlState ?? "")); "
                + "have the store's owner grant the role the right it names, or use a role that has it")
        } catch let error as PostgresError {
            throw StoreError.server(path: path, code: error.sqlState, message: error.message)
        }
    }

    // MARK: The rest of the seam

    package func otherProcessCommits(every interval: Duration) -> AsyncStream<Void> {
        PostgresCommitListener.signals(uri: uri, every: interval) { [weak self] event in
            guard let self else { return }
            // The idle readers were connected to the server that went away: the read that the listener's ring
            // brings must not fail on one of them and leave the changes unread until the next commit.
            if event == .back { idleReaders.withLock { $0.removeAll() } }
            for observer in listenerObservers.withLock({ $0 }) { observer(event) }
        }
    }

    /// Calls `observer` (on the listener's thread) when the listener of ``otherProcessCommits(every:)`` loses the
    /// server, and when it is back: a watch tells its user, since it goes quiet meanwhile.
    package func observeListener(_ observer: @escaping @Sendable (PostgresListenerEvent) -> Void) {
        listenerObservers.withLock { $0.append(observer) }
    }

    package func formatVersion() throws -> Int {
        return try withReaderConnection { connection in try PostgresSchema.formatVersion(on: connection) }
    }

    package func integrityProblems(limit: Int) throws -> [String] {
        let problems = try withReaderConnection { connection in
            try PostgresSchema(schema).missingParts(on: connection)
        }
        return Array(problems.prefix(max(1, limit)))
    }

    package func close() throws {
        isClosed.withLock { $0 = true }
        idleReaders.withLock { $0.removeAll() }
        writer.withLock { $0 = nil }
    }

    private func withReaderConnection<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        let connection = try checkOutReader()
        defer { checkIn(connection) }
        return try Self.translating(path: path) { try body(connection) }
    }
}
