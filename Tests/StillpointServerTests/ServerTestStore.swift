import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import PracticeLog
import StillpointCore
import StillpointPostgresTestSupport
import StillpointSQLite
import Testing
@testable import StillpointServer

/// A server over a new empty store of each kind, run in process with HummingbirdTesting.
///
/// ```swift
/// @Test(arguments: ServerTestStore.kinds)
/// func answers(_ kind: ServerTestStore.Kind) async throws {
///     try await ServerTestStore.withServer(kind) { client, state in ... }
/// }
/// ```
enum ServerTestStore {
    enum Kind: String, Sendable, CustomTestStringConvertible {
        case sqlite
        case postgres

        var testDescription: String { self == .sqlite ? "SQLite" : "PostgreSQL" }
    }

    /// SQLite, and PostgreSQL unless `STILLPOINT_TEST_POSTGRES=skip`.
    static let kinds: [Kind] = PostgresTestServer.isWanted ? [.sqlite, .postgres] : [.sqlite]

    /// The administrator's token of the test servers.
    static let adminToken = "test-administrator-token-0123456789abcdef"

    /// A new empty store of `kind`: a SQLite file in a folder of its own, or a database of its own.
    static func makeStore(_ kind: Kind) throws -> String {
        switch kind {
        case .sqlite:
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stillpoint-server-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let url = directory.appendingPathComponent("store.sqlite")
            try PersistentContainer(schema: Session.schema, location: .file(url)).close()
            return url.path
        case .postgres:
            return try PostgresTestServer.shared().makeDatabase("server")
        }
    }

    /// Runs `body` with a client of a server over a new store of `kind`, configured by `configure`.
    static func withServer(_ kind: Kind, configure: (inout ServerConfiguration) throws -> Void = { _ in },
                           _ body: @Sendable (any TestClientProtocol, ServerState) async throws -> Void) async throws {
        var configuration = ServerConfiguration()
        configuration.store = try makeStore(kind)
        configuration.adminToken = try AdminToken(adminToken, from: "the tests")
        // The whole suite runs at once on two cores: a report may take far longer than a real server's timeout.
        configuration.limits.requestTimeout = .seconds(300)
        try configure(&configuration)
        var logger = Logger(label: "stillpoint-server-tests")
        logger.logLevel = .warning
        let container = try await ServerStore.open(configuration.store, logger: logger)
        let state = try ServerState(configuration: configuration, container: container, logger: logger)
        defer { try? container.close() }
        do {
            try await ServerApplication.application(state).test(.router) { client in
                try await body(client, state)
            }
        } catch {
            await state.live.shutdown()
            throw error
        }
        await state.live.shutdown()
    }
}
