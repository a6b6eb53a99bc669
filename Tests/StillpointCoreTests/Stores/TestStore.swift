import Foundation
import StillpointCore
import StillpointPostgres
import StillpointPostgresTestSupport
import Testing

/// The stores the core's behaviour tests run against: each test that opens a container takes one as its argument.
///
/// ```swift
/// @Test(arguments: TestStore.all)
/// func savesReachTheStore(store: TestStore) async throws {
///     let container = try await makeContainer(store)
/// }
/// ```
enum TestStore: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqliteMemory
    case sqliteFile
    case postgres

    /// Every store this run covers: all of them, less PostgreSQL when `STILLPOINT_TEST_POSTGRES=skip` is set on
    /// purpose. Without that setting, a PostgreSQL case whose server cannot start fails and says how to get one.
    static let all: [TestStore] = allCases.filter { $0 != .postgres || PostgresTestServer.isWanted }

    /// The stores a second container can open as well, as another process would: all but SQLite in memory.
    static let shareable: [TestStore] = all.filter { $0 != .sqliteMemory }

    var testDescription: String {
        switch self {
        case .sqliteMemory: return "SQLite in memory"
        case .sqliteFile: return "SQLite file"
        case .postgres: return "PostgreSQL"
        }
    }

    var isSQLite: Bool { self != .postgres }

    /// A new, empty place of this kind: a private in-memory store, a file in a temporary folder (removed when
    /// the test process exits), or a schema of its own in the PostgreSQL database of the running suite.
    /// Containers opened on the same location share the store, as two processes would.
    func makeLocation() async throws -> StoreLocation {
        switch self {
        case .sqliteMemory: return .inMemory
        case .sqliteFile: return .file(try TestScratch.newDirectory().appendingPathComponent("store.sqlite"))
        case .postgres:
            let suite = PostgresTestSchemas.suiteOfCurrentTest()
            return .postgres(try await blockingWork { try PostgresTestSchemas.shared.makeSchema(forSuite: suite) })
        }
    }
}
