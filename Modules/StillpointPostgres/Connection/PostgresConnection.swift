import CLibPQ
import Foundation

/// One connection to a PostgreSQL server through libpq: statements with text parameters, transactions, `COPY`
/// in, `LISTEN` and notifications, and cancellation from another thread.
///
/// Calls block, as a context's `perform` does on its own executor: use a connection from one thread at a time
/// (it is not `Sendable`); only its ``cancelToken`` crosses threads.
///
/// ```swift
/// let connection = try PostgresConnection(uri: "postgresql:///practice?host=/run/postgresql")
/// try connection.execute("CREATE TABLE t (id bigserial PRIMARY KEY, note text)")
/// let result = try connection.execute("INSERT INTO t (note) VALUES ($1) RETURNING id", ["first"])
/// print(result.integer(row: 0, column: 0) ?? 0)   // 1
/// ```
package final class PostgresConnection {
    private let handle: OpaquePointer
    /// Where the connection goes, for messages.
    package let target: PostgresTarget
    /// Cancels the running statement from any thread.
    package let cancelToken: PostgresCancelToken
    /// Where the statements sent are counted, if anywhere (the store's counter).
    private let statements: PostgresStatementCounter?
    /// Rows per `FETCH` of the cursors read on this connection (``PostgresCursor``); tests make it small to cross
    /// batch boundaries with a few rows.
    package var rowsPerFetch = PostgresCursor.chunk
    /// A read transaction's `BEGIN`, not sent yet: it goes to the server with the transaction's first statement.
    private var pendingBegin: String?
    /// Whether a read transaction's `COMMIT` went without waiting: the next statement reads its result first.
    private var awaitsCommit = false
    /// The statements prepared on this connection, by their SQL, with the name each has on the server; only
    /// those the server said it prepared. A connection that replaces this one starts with none.
    private var preparedNames: [String: String] = [:]
    /// Statements prepared on one connection at most; beyond, ``executePrepared(_:_:)`` runs them unnamed.
    static let largestPrepared = 64

    /// Connects to the server `uri` names (`postgresql://user@host:port/database?...`, or libpq's `key=value`
    /// pairs; libpq's environment variables fill in what it leaves out).
    package init(uri: String, countingIn statements: PostgresStatementCounter? = nil) throws(PostgresError) {
        target = PostgresTarget(uri: uri)
        self.statements = statements
        guard let handle = PQconnectStart(uri) else {
            throw PostgresError(message: "libpq could not allocate a connection", target: target.description)
        }
        // Verbose while connecting, for the SQLSTATE of the server's refusal (3D000: no such database), which
        // libpq keeps only in the message.
        PQsetErrorVerbosity(handle, PQERRORS_VERBOSE)
        if let failure = Self.finishConnecting(handle) {
            let (state, message) = Self.serverState(in: failure)
            let database = PQdb(handle).map { String(cString: $0) }
            PQfinish(handle)
            throw PostgresError(sqlState: state ?? PostgresError.cannotConnect, message: message, target: target.description,
                                connecting: true, database: database)
        }
        PQsetErrorVerbosity(handle, PQERRORS_DEFAULT)
        // Text goes both ways as UTF-8 whatever the database's or the environment's encoding.
        guard PQsetClientEncoding(handle, "UTF8") == 0 else {
            let message = Self.message(PQerrorMessage(handle))
            PQfinish(handle)
            throw PostgresError(message: "cannot use UTF-8 with the server: \(message)", target: target.description)
        }
        self.handle = handle
        cancelToken = PostgresCancelToken(handle)
        // Notices (such as "relation already exists, skipping") would go to standard error.
        PQsetNoticeProcessor(handle, { _, _ in }, nil)
    }

    deinit {
        PQfinish(handle)
    }

    /// Drives `PQconnectPoll` to the end, as `PQconnectdb` does, and returns libpq's message when the connection
    /// fails, `nil` when it stands.
    ///
    /// `connect_timeout` (from the URI or `PGCONNECT_TIMEOUT`) bounds each wait, at least 2 s as in libpq; unlike
    /// `PQconnectdb`, a host that times out ends the attempt rather than passing on to the URI's next host.
    private static func finishConnecting(_ handle: OpaquePointer) -> String? {
        let timeout = connectTimeout(of: handle).map { Int32(clamping: max($0, 2) * 1_000) } ?? -1
        var state = PQstatus(handle) == CONNECTION_BAD ? PGRES_POLLING_FAILED : PGRES_POLLING_WRITING
        while true {
            switch state {
            case PGRES_POLLING_OK:
                return nil
            case PGRES_POLLING_FAILED:
                return message(PQerrorMessage(handle))
            default:
                let events = state == PGRES_POLLING_READING ? POLLIN : POLLOUT
                var descriptor = pollfd(fd: PQsocket(handle), events: Int16(events), revents: 0)
                var ready = poll(&descriptor, 1, timeout)
                while ready < 0 && errno == EINTR { ready = poll(&descriptor, 1, timeout) }
                if ready == 0 { return "timeout expired" }
                state = PQconnectPoll(handle)
            }
        }
    }

    /// The seconds of `connect_timeout` libpq read for `handle`, when there is a positive one.
    private static func connectTimeout(of handle: OpaquePointer) -> Int? {
        guard let options = PQconninfo(handle) else { return nil }
        defer { PQconninfoFree(options) }
        var option = options
        while let keyword = option.pointee.keyword {
            if String(cString: keyword) == "connect_timeout" {
                return option.pointee.val.flatMap { Int(String(cString: $0)) }.flatMap { $0 > 0 ? $0 : nil }
            }
            option += 1
        }
        return nil
    }

    /// The SQLSTATE of the server's refusal in a verbose connection message (`FATAL:  3D000: database "x" does not
    /// exist`, then a `LOCATION:` line), and the message as the default verbosity gives it.
    private static func serverState(in text: String) -> (state: String?, message: String) {
        var state: String?
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("LOCATION:") }
        let message = lines.joined(separator: "\n").replacing(#/:  ([0-9A-Z]{5}):\s/#) { match in
            state = String(match.output.1)
            return ":  "
        }
        return (state, message.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Runs one statement with `parameters` bound to `$1`, `$2`, ... as text (`nil` is `NULL`), and returns its rows.
    @discardableResult
    package func execute(_ sql: String, _ parameters: [String?] = []) throws(PostgresError) -> PostgresResult {
        try checkParameters(parameters)
        finishCommit()
        if let begin = pendingBegin {
            pendingBegin = nil
            return try pipeline(begin: begin, prepare: nil, .unnamed(sql), parameters)
        }
        statements?.add(roundTrip: true)
        let result: OpaquePointer? = parameters.isEmpty
            ? PQexec(handle, sql)
            : Self.withCStrings(parameters) { values in
                PQexecParams(handle, sql, Int32(values.count), nil, values, nil, nil, 0)
            }
        return try check(result)
    }

    /// Runs `sql` as ``execute(_:_:)`` does, as a statement prepared on this connection: the first time it is
    /// prepared in the same round trip as it runs (libpq's pipeline mode), and after that run by name, so that the
    /// server parses and plans a statement run again and again (each practitioner's digest read) once per
    /// connection. Statements are told apart by their SQL; the parameters' values may differ every time.
    ///
    /// ```swift
    /// for id in ["alice", "bob"] {   // prepared for alice, run by name for bob
    ///     try connection.executePrepared(#"SELECT "_id" FROM "Practitioner" WHERE "id" = $1"#, [id])
    /// }
    /// ```
    @discardableResult
    package func executePrepared(_ sql: String, _ parameters: [String?] = []) throws(PostgresError) -> PostgresResult {
        try checkParameters(parameters)
        finishCommit()
        let begin = pendingBegin
        pendingBegin = nil
        if let name = preparedNames[sql] {
            guard begin == nil else { return try pipeline(begin: begin, prepare: nil, .prepared(name), parameters) }
            statements?.add(roundTrip: true)
            do {
                return try check(Self.withCStrings(parameters) { values in
                    PQexecPrepared(handle, name, Int32(values.count), values, nil, nil, 0)
                })
            } catch {
                // Someone deallocated it (`DEALLOCATE ALL`): the next run prepares it again.
                if error.sqlState == "26000" { preparedNames[sql] = nil }
                throw error
            }
        }
        guard preparedNames.count < Self.largestPrepared else {
            return try pipeline(begin: begin, prepare: nil, .unnamed(sql), parameters)
        }
        let name = "stillpoint_\(preparedNames.count + 1)"
        return try pipeline(begin: begin, prepare: (name, sql), .prepared(name), parameters)
    }

    /// How many statements the server holds prepared for this connection.
    package var preparedCount: Int { preparedNames.count }

    /// A statement of a pipeline: its SQL, or the name it was prepared under.
    private enum PipelineStatement {
        case unnamed(String)
        case prepared(String)
    }

    /// Sends a read transaction's `begin` (if any), the preparation of a statement (if any) and the statement in one
    /// round trip (libpq's pipeline mode), and returns the statement's rows. A statement is known as prepared only
    /// once the server said so: after a failed `BEGIN` or preparation it is prepared again the next time.
    private func pipeline(begin: String?, prepare: (name: String, sql: String)?, _ statement: PipelineStatement,
                          _ parameters: [String?]) throws(PostgresError) -> PostgresResult {
        guard PQenterPipelineMode(handle) == 1 else { throw error(PQerrorMessage(handle)) }
        if begin != nil { statements?.add(roundTrip: false) }
        statements?.add(roundTrip: true)
        var sent = begin.map { PQsendQueryParams(handle, $0, 0, nil, nil, nil, nil, 0) == 1 } ?? true
        if sent, let prepare {
            statements?.addPreparation()
            sent = PQsendPrepare(handle, prepare.name, prepare.sql, Int32(parameters.count), nil) == 1
        }
        sent = sent && Self.withCStrings(parameters) { values in
            switch statement {
            case .unnamed(let sql): PQsendQueryParams(handle, sql, Int32(values.count), nil, values, nil, nil, 0)
            case .prepared(let name): PQsendQueryPrepared(handle, name, Int32(values.count), values, nil, nil, 0)
            }
        } == 1
        sent = sent && PQpipelineSync(handle) == 1
        guard sent else {
            let failure = error(PQerrorMessage(handle))
            _ = PQexitPipelineMode(handle)
            throw failure
        }
        // Every result is read, the sync's last, before the connection leaves pipeline mode.
        let began = begin == nil ? nil : nextPipelineResult()
        let prepared = prepare == nil ? nil : nextPipelineResult()
        let result = nextPipelineResult()
        if let sync = PQgetResult(handle) { PQclear(sync) }
        _ = PQexitPipelineMode(handle)
        // A step that failed aborted the steps after it (PGRES_PIPELINE_ABORTED): its own error is the one to tell.
        let steps = [(began, begin != nil), (prepared, prepare != nil)]
        if let failed = steps.first(where: { step, sent in sent && step.map { PQresultStatus($0) != PGRES_COMMAND_OK } ?? sent }) {
            for other in [began, prepared, result] where other != failed.0 { if let other { PQclear(other) } }
            _ = try check(failed.0)
            throw error(PQerrorMessage(handle))
        }
        if let began { PQclear(began) }
        if let prepared, let prepare {
            PQclear(prepared)
            preparedNames[prepare.sql] = prepare.name
        }
        return try check(result)
    }

    /// Refuses a parameter holding a NUL character: a C string ends at the first NUL, so the value would arrive cut
    /// short, without a word.
    private func checkParameters(_ parameters: [String?]) throws(PostgresError) {
        if let index = parameters.firstIndex(where: { $0?.utf8.contains(0) == true }) {
            throw PostgresError(message: "parameter $\(index + 1) holds a NUL character (U+0000), which PostgreSQL's text cannot carry",
                                target: target.description)
        }
    }

    /// The first result of the next statement of a pipeline, the rest of its results (and the `NULL` that ends
    /// them) read and dropped; `nil` when the connection failed.
    private func nextPipelineResult() -> OpaquePointer? {
        guard let first = PQgetResult(handle) else { return nil }
        while let extra = PQgetResult(handle) { PQclear(extra) }
        return first
    }

    /// Reads the result of a read transaction's `COMMIT` sent without waiting, if any.
    private func finishCommit() {
        guard awaitsCommit else { return }
        awaitsCommit = false
        while let result = PQgetResult(handle) { PQclear(result) }
    }

    /// Runs `body` in a read-only transaction (`BEGIN` with `mode`) in as few round trips as the server allows: its
    /// `BEGIN` goes with the first statement (libpq's pipeline mode), and its `COMMIT` is sent without waiting for
    /// the answer (the connection's next statement reads it first), since a read-only transaction keeps nothing.
    /// A body that sends no statement costs none. Rolled back, and waited for, when `body` throws.
    ///
    /// ```swift
    /// let count = try connection.readTransaction("ISOLATION LEVEL REPEATABLE READ, READ ONLY") {
    ///     try connection.execute("SELECT count(*) FROM t").integer(row: 0, column: 0)   // one round trip, BEGIN included
    /// }
    /// ```
    package func readTransaction<T>(_ mode: String, _ body: () throws -> T) throws -> T {
        finishCommit()
        pendingBegin = "BEGIN " + mode
        let value: T
        do {
            value = try body()
        } catch {
            // A BEGIN still pending was never sent: nothing to roll back.
            if pendingBegin == nil { _ = try? execute("ROLLBACK") }
            pendingBegin = nil
            throw error
        }
        guard pendingBegin == nil else {
            pendingBegin = nil
            return value
        }
        statements?.add(roundTrip: false)
        guard PQsendQuery(handle, "COMMIT") == 1 else { throw error(PQerrorMessage(handle)) }
        awaitsCommit = true
        return value
    }

    /// Runs `body` in a transaction (`BEGIN` with `mode`, for example `ISOLATION LEVEL REPEATABLE READ`), committed
    /// when it returns and rolled back when it throws.
    package func transaction<T>(_ mode: String = "", _ body: () throws -> T) throws -> T {
        try execute("BEGIN" + (mode.isEmpty ? "" : " " + mode))
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            _ = try? execute("ROLLBACK")
            throw error
        }
    }

    /// Streams rows into `COPY ... FROM STDIN` (text format): `rows` yields each row's fields; `nil` is `NULL`.
    /// Returns how many rows were copied.
    @discardableResult
    package func copy<Rows: Sequence>(_ sql: String, rows: Rows) throws(PostgresError) -> Int where Rows.Element == [String?] {
        if let begin = pendingBegin {
            pendingBegin = nil
            try execute(begin)
        }
        finishCommit()
        statements?.add(roundTrip: true)
        _ = try check(PQexec(handle, sql), expecting: PGRES_COPY_IN)
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1 << 16)
        func flush() throws(PostgresError) {
            // One row may hold more bytes than libpq's C int counts (a caller's huge value): send pieces of 1 GB at most.
            let sent = buffer.withUnsafeBufferPointer { bytes -> Int32 in
                guard let base = bytes.baseAddress else { return 1 }
                var offset = 0
                while offset < bytes.count {
                    let length = min(bytes.count - offset, 1 << 30)
                    let status = PQputCopyData(handle, UnsafeRawPointer(base + offset).assumingMemoryBound(to: CChar.self), Int32(truncatingIfNeeded: length))
                    if status != 1 { return status }
                    offset += length
                }
                return 1
            }
            buffer.removeAll(keepingCapacity: true)
            if sent != 1 { throw error(PQerrorMessage(handle)) }
        }
        var count = 0
        for row in rows {
            for (index, field) in row.enumerated() {
                if index > 0 { buffer.append(0x09) }
                guard let field else {
                    buffer.append(contentsOf: [0x5C, 0x4E])
                    continue
                }
                guard Self.appendCopyText(field, to: &buffer) else {
                    // Ends the copy with an error (the server rolls it back), so that the connection leaves COPY mode.
                    _ = PQputCopyEnd(handle, "a field holds a NUL character")
                    while let result = PQgetResult(handle) { PQclear(result) }
                    throw PostgresError(message: "row \(count + 1), field \(index + 1) of a COPY holds a NUL character (U+0000), "
                                        + "which PostgreSQL's text cannot carry", target: target.description)
                }
            }
            buffer.append(0x0A)
            count += 1
            if buffer.count >= 1 << 16 { try flush() }
        }
        try flush()
        guard PQputCopyEnd(handle, nil) == 1 else { throw error(PQerrorMessage(handle)) }
        _ = try check(PQgetResult(handle))
        while let extra = PQgetResult(handle) { PQclear(extra) }
        return count
    }

    /// The notifications that arrived for channels this connection `LISTEN`s on, waiting up to `timeout` for the
    /// first one when none is waiting.
    package func notifications(waitingUpTo timeout: Duration = .zero) throws(PostgresError) -> [(channel: String, payload: String)] {
        var found = try pendingNotifications()
        if found.isEmpty, timeout > .zero {
            var descriptor = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(clamping: timeout.components.seconds * 1_000 + timeout.components.attoseconds / 1_000_000_000_000_000)
            if poll(&descriptor, 1, milliseconds) > 0 { found = try pendingNotifications() }
        }
        return found
    }

    /// Whether the connection to the server still stands (a failed statement leaves it usable; a server that
    /// went away does not).
    package var isHealthy: Bool { PQstatus(handle) == CONNECTION_OK }

    /// Whether the connection still stands, having read what the server sent meanwhile: a server that stopped
    /// while the connection lay idle said so (or closed the socket), which ``isHealthy`` learns only on the next
    /// statement. Reads without blocking; a notification read stays queued for ``notifications(waitingUpTo:)``.
    ///
    /// It reads a few times at most, and stops as soon as nothing is waiting.
    package var isStillConnected: Bool {
        // A server that ends a connection sends why, then closes it: the first read takes the message (which libpq
        // treats as a notice), the next meets the end. An idle connection in good health has nothing to read.
        for _ in 0..<4 where isHealthy {
            var descriptor = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 0) > 0 else { break }
            _ = PQconsumeInput(handle)
        }
        return isHealthy
    }

    /// The descriptor of the connection's socket, to wait on with `poll` for notifications.
    package var socket: Int32 { PQsocket(handle) }

    private func pendingNotifications() throws(PostgresError) -> [(channel: String, payload: String)] {
        guard PQconsumeInput(handle) == 1 else { throw error(PQerrorMessage(handle)) }
        var found: [(channel: String, payload: String)] = []
        while let notification = PQnotifies(handle) {
            found.append((String(cString: notification.pointee.relname), String(cString: notification.pointee.extra)))
            PQfreemem(notification)
        }
        return found
    }

    // MARK: Results and errors

    private func check(_ result: OpaquePointer?, expecting expected: ExecStatusType? = nil) throws(PostgresError) -> PostgresResult {
        guard let result else { throw error(PQerrorMessage(handle)) }
        let status = PQresultStatus(result)
        let succeeded = expected.map { status == $0 } ?? (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK)
        guard succeeded else {
            let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
            let message = Self.message(PQresultErrorMessage(result))
            PQclear(result)
            var error = PostgresError(sqlState: state, message: message, target: target.description)
            error.isConnectionLost = !isHealthy || PostgresError.endsConnection(state)
            throw error
        }
        return PostgresResult(result)
    }

    private func error(_ message: UnsafePointer<CChar>?) -> PostgresError {
        var error = PostgresError(message: Self.message(message), target: target.description)
        error.isConnectionLost = !isHealthy
        return error
    }

    private static func message(_ text: UnsafePointer<CChar>?) -> String {
        text.map { String(cString: $0) }?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "unknown error"
    }

    /// Calls `body` with the parameters as C strings that live until it returns.
    private static func withCStrings<T>(_ values: [String?], _ body: ([UnsafePointer<CChar>?]) -> T) -> T {
        let copies = values.map { $0.map { strdup($0) } ?? nil }
        defer { copies.forEach { free($0) } }
        return body(copies.map { $0.map { UnsafePointer($0) } })
    }

    /// Appends `text` in `COPY`'s text format (backslash, tab, newline and carriage return escaped); false when it
    /// holds a NUL character, which no escape can carry.
    ///
    /// One pass over the bytes, and the runs between escapes copied whole: most fields need no escape at all.
    private static func appendCopyText(_ text: String, to buffer: inout [UInt8]) -> Bool {
        if let appended = text.utf8.withContiguousStorageIfAvailable({ appendCopyText($0, to: &buffer) }) { return appended }
        return Array(text.utf8).withUnsafeBufferPointer { appendCopyText($0, to: &buffer) }
    }

    private static func appendCopyText(_ bytes: UnsafeBufferPointer<UInt8>, to buffer: inout [UInt8]) -> Bool {
        var runStart = 0
        for index in bytes.indices {
            let escape: UInt8
            switch bytes[index] {
            case 0x5C: escape = 0x5C
            case 0x09: escape = 0x74
            case 0x0A: escape = 0x6E
            case 0x0D: escape = 0x72
            case 0x00: return false
            default: continue
            }
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
            buffer.append(0x5C)
            buffer.append(escape)
            runStart = index + 1
        }
        buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
        return true
    }
}
