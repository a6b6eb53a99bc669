import Foundation
@testable import StillpointCore
@testable import StillpointPostgres
import StillpointPostgresTestSupport
import Testing

/// The PostgreSQL driver: cancelling through a context's interrupt flag stops the statement on the server,
/// read-only opens write nothing and refuse a database without a store, and errors name the store.
@Suite("PostgresStore", .enabled(if: PostgresTestServer.isWanted))
struct PostgresStoreTests {
    private func makeStore(access: StoreAccess = .readWrite) throws -> (PostgresStore, String) {
        let uri = try PostgresTestServer.shared().makeDatabase("store")
        return (try PostgresStore(uri: uri, schema: try Schema([Practice.self]), access: access), uri)
    }

    @Test func settingTheInterruptFlagCancelsTheRunningStatementOnTheServer() throws {
        let (store, _) = try makeStore()
        let flag = InterruptFlag()
        let start = ContinuousClock.now
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { flag.set() }
        #expect(throws: CancellationError.self) {
            try store.reading(interruptedBy: flag) { reader in
                let connection = try #require(reader as? PostgresStoreConnection).connection
                try connection.execute("SELECT pg_sleep(30)")
            }
        }
        #expect(ContinuousClock.now - start < .seconds(10))
        // While the flag stays set, nothing more runs; once cleared, the store reads again.
        #expect(throws: CancellationError.self) { try store.reading(interruptedBy: flag) { _ in } }
        flag.clear()
        #expect(try store.reading(interruptedBy: flag) { try $0.count(FetchRequest(Practice.self)) } == 0)
    }

    @Test func aReadOnlyOpenRefusesADatabaseWithoutAStoreAndWritesNothing() throws {
        let uri = try PostgresTestServer.shared().makeDatabase("empty")
        #expect(throws: StoreError.noStore(path: StoreLocation.postgres(uri).displayPath)) {
            try PostgresStore(uri: uri, schema: try Schema([Practice.self]), access: .readOnly)
        }
        let tables = try PostgresConnection(uri: uri).execute(
            "SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema()")
        #expect(tables.integer(row: 0, column: 0) == 0)

        _ = try PostgresStore(uri: uri, schema: try Schema([Practice.self]))
        let reader = try PostgresStore(uri: uri, schema: try Schema([Practice.self]), access: .readOnly)
        #expect(throws: StoreError.readOnly(path: reader.location.displayPath)) {
            try reader.writing(interruptedBy: nil) { _ in }
        }
        #expect(try reader.integrityProblems(limit: 10) == [])
        #expect(try reader.formatVersion() == PersistentContainer.storeFormatVersion)
    }

    /// A database the server does not have is the server's missing store file, whether the open would write or not.
    @Test(arguments: [StoreAccess.readWrite, .readOnly])
    func aDatabaseThatDoesNotExistIsNamedAsMissing(access: StoreAccess) throws {
        let uri = try PostgresTestServer.shared().uri(database: "never_made") + "&password=s3cret"
        let path = StoreLocation.postgres(uri).displayPath
        #expect(throws: StoreError.noDatabase(path: path, database: "never_made")) {
            try PostgresStore(uri: uri, schema: try Schema([Practice.self]), access: access)
        }
        let message = StoreError.noDatabase(path: path, database: "never_made").description
        #expect(message.contains("the database never_made of") && message.contains("does not exist") && message.contains("createdb never_made"), "\(message)")
        #expect(!path.contains("s3cret"))
        // Nothing was made on the way.
        let databases = try PostgresConnection(uri: PostgresTestServer.shared().uri())
            .execute("SELECT count(*) FROM pg_database WHERE datname = 'never_made'")
        #expect(databases.integer(row: 0, column: 0) == 0)
    }

    @Test func aColumnOfAnotherTypeIsRefusedBeforeAnythingIsWritten() throws {
        let uri = try PostgresTestServer.shared().makeDatabase("types")
        try PostgresConnection(uri: uri).execute(
            "CREATE TABLE \"Practice\" (\"_id\" bigserial PRIMARY KEY, \"_version\" bigint NOT NULL DEFAULT 1, \"uid\" text)")
        #expect {
            try PostgresStore(uri: uri, schema: try Schema([Practice.self]))
        } throws: { error in
            guard case StoreError.incompatibleSchema(_, let entity, let reason)? = error as? StoreError else { return false }
            return entity == "Practice" && reason.contains("uid")
        }
    }

    @Test func aNewRequiredAttributeWithoutADefaultIsRefused() throws {
        let uri = try PostgresTestServer.shared().makeDatabase("required")
        try PostgresConnection(uri: uri).execute(
            "CREATE TABLE \"Practice\" (\"_id\" bigserial PRIMARY KEY, \"_version\" bigint NOT NULL DEFAULT 1)")
        #expect {
            try PostgresStore(uri: uri, schema: try Schema([Practice.self]))
        } throws: { error in
            guard case StoreError.incompatibleSchema(_, _, let reason)? = error as? StoreError else { return false }
            return reason.contains("'uid' is required")
        }
    }

    @Test func aStoreOfANewerFormatIsRefused() throws {
        let (store, uri) = try makeStore()
        try store.close()
        try PostgresConnection(uri: uri).execute("UPDATE \(PostgresSchema.formatTable) SET format = 99")
        #expect(throws: StoreError.newerVersion(path: StoreLocation.postgres(uri).displayPath, version: 99,
                                                supported: PersistentContainer.storeFormatVersion)) {
            try PostgresStore(uri: uri, schema: try Schema([Practice.self]))
        }
    }

    @Test func passwordsNeverReachMessages() {
        #expect(StoreLocation.postgres("postgresql://app:s3cret@db.example:5433/practice").displayPath
                == "postgresql://app:***@db.example:5433/practice")
        #expect(StoreLocation.postgres("postgresql://db.example/practice?user=app&password=s3cret&sslmode=require").displayPath
                == "postgresql://db.example/practice?user=app&password=***&sslmode=require")
        #expect(StoreLocation.postgres("host=db.example password='a b' dbname=practice").displayPath
                == "host=db.example password=*** dbname=practice")
        #expect(StoreLocation.postgres("postgresql://db.example:5432/practice").displayPath == "postgresql://db.example:5432/practice")
        // A password that holds what libpq ends the user part at, in any case of scheme or keyword.
        #expect(StoreLocation.postgres("postgresql://u:Hunter2?Secret@db.example:5433/practice").displayPath
                == "postgresql://u:***@db.example:5433/practice")
        #expect(StoreLocation.postgres("PostgreSQL://u:Hunter2/Sec@ret@db.example/practice").displayPath
                == "PostgreSQL://u:***@db.example/practice")
        #expect(StoreLocation.postgres("postgresql://db.example/practice?PASSWORD=Hunter2&user=u").displayPath
                == "postgresql://db.example/practice?PASSWORD=***&user=u")
        #expect(StoreLocation.postgres("host=db.example password=Hunter2 Secret dbname=practice").displayPath
                == "host=db.example password=*** dbname=practice")
        #expect(StoreLocation.redactingPasswords(in: "store: \"postgresql://u:Hunter2?Secret@db/practice\"\nstatistics: []")
                == "store: \"postgresql://u:***@db/practice\"\nstatistics: []")
        // URIs libpq cannot parse come back quoted in its messages.
        for uri in ["postgresql://me:secret@[::1/practice", "postgresql://me:s%zzsecret@127.0.0.1:1/practice",
                    "postgresql://127.0.0.1/practice?password=s%zzsecret", "host=[ password='sec ret' dbname=x"] {
            #expect {
                try PostgresStore(uri: uri, schema: try Schema([Practice.self]))
            } throws: { error in
                let text = "\(error)"
                return !text.contains("secret") && !text.contains("sec ret") && !text.contains("zz")
            }
        }
    }

    /// A server stopped under a store with a kept writing and reading connection: the writes and reads meanwhile fail
    /// as unavailable (a lost connection, then one refused), never as the server's error, and once it is started
    /// again the same store writes and reads again without being reopened, from the first write and read on.
    @Test func theWriterAndReadersConnectAgainAfterTheServerRestarts() throws {
        let server = try PostgresTestServer.ownServer()
        defer { try? server.stop() }
        let store = try PostgresStore(uri: try server.makeDatabase("restart"), schema: try Schema([Practice.self]))
        let container = PersistentContainer(store: store)
        defer { try? container.close() }
        func insert(_ uid: Int64) throws {
            try store.writing(interruptedBy: nil) { writer in
                let connection = try #require(writer as? PostgresStoreConnection).connection
                try connection.execute("INSERT INTO \"Practice\" (uid) VALUES ($1)", [String(uid)])
            }
        }
        func count() throws -> Int {
            try store.reading(interruptedBy: nil) { try $0.count(FetchRequest(Practice.self)) }
        }
        try insert(1)
        #expect(try count() == 1)

        try server.stop()
        for _ in 1...2 {
            let write = #expect(throws: StoreError.self) { try insert(100) }
            #expect(write?.driverError?.kind == .unavailable, "\(String(describing: write))")
            let read = #expect(throws: StoreError.self) { _ = try count() }
            #expect(read?.driverError?.kind == .unavailable, "\(String(describing: read))")
        }

        try server.start()
        try insert(2)
        #expect(try count() == 2)

        // Stopped and started again while the connections lay idle: the first write and read afterwards work.
        try server.stop()
        try server.start()
        try insert(3)
        #expect(try count() == 3)
    }

    /// The server ending the writer's connection in the middle of a write (as `pg_terminate_backend` or a restart
    /// does): the store's error is a lost connection, unavailable, and the next write connects again.
    @Test func aConnectionLostInAWriteIsUnavailableAndTheNextWriteConnectsAgain() throws {
        let (store, _) = try makeStore()
        let lost = #expect(throws: StoreError.self) {
            try store.writing(interruptedBy: nil) { writer in
                let connection = try #require(writer as? PostgresStoreConnection).connection
                try connection.execute("SELECT pg_terminate_backend(pg_backend_pid())")
            }
        }
        #expect(lost?.driverError?.kind == .unavailable)
        #expect(lost?.description.contains("lost the connection to the PostgreSQL server") == true, "\(String(describing: lost))")
        let written = try store.writing(interruptedBy: nil) { writer in
            let connection = try #require(writer as? PostgresStoreConnection).connection
            return try connection.execute("INSERT INTO \"Practice\" (uid) VALUES (1) RETURNING uid").integer(row: 0, column: 0)
        }
        #expect(written == 1)
    }
}
