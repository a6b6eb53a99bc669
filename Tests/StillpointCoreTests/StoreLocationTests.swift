import Foundation
@testable import StillpointCore
import StillpointPostgres
@testable import StillpointSQLite
import Testing

/// `StoreLocation`, open to every store module: a scheme and an address, the schemes' openers registered by the
/// modules, and the path messages show.
@Suite struct StoreLocationTests {
    @Test func aFileAndMemoryAreTheCoresSchemes() {
        let url = URL(fileURLWithPath: "/tmp/practice.sqlite")
        #expect(StoreLocation.file(url).fileURL == url && StoreLocation.file(url).displayPath == url.path)
        #expect(StoreLocation.file(url) == .file(URL(fileURLWithPath: "/tmp/practice.sqlite")))
        #expect(StoreLocation.inMemory.fileURL == nil && StoreLocation.inMemory.displayPath == ":memory:")
        #expect(StoreLocation.postgres("postgresql://db/practice").scheme == StoreLocation.postgresScheme)
        #expect(StoreLocation.postgres("postgresql://db/practice").postgresURI == "postgresql://db/practice")
        #expect(StoreLocation.file(url).postgresURI == nil)
    }

    /// A store module's scheme shows no password, whatever the scheme.
    @Test func aLocationOfAnyURISchemeShowsNoPassword() {
        #expect(StoreLocation(scheme: "mydb", address: "mydb://app:Hunter2@db.example/practice").displayPath
                == "mydb://app:***@db.example/practice")
        #expect(StoreLocation(scheme: "mydb", address: "mydb://db.example/practice?password=Hunter2").displayPath
                == "mydb://db.example/practice?password=***")
    }

    /// A scheme no store module registered is refused with what is missing; a registered one opens through its opener.
    @Test func aContainerOpensALocationThroughItsSchemesOpener() throws {
        let schema = try Schema([Item.self])
        let unknown = StoreLocation(scheme: "nowhere-\(UUID().uuidString)", address: "nowhere://db/practice")
        #expect { try PersistentContainer(schema: schema, location: unknown) } throws: { error in
            guard case StoreError.storeModuleMissing(let path, let module)? = error as? StoreError else { return false }
            return path == unknown.displayPath && module.contains(unknown.scheme)
        }
        let scheme = "elsewhere-\(UUID().uuidString)"
        StoreLocation.register(scheme: scheme) { _, schema, access in
            try Store(location: .inMemory, schema: schema, access: access)
        }
        let container = try PersistentContainer(schema: schema, location: StoreLocation(scheme: scheme, address: "x"))
        #expect(container.location == .inMemory)
    }

    /// `.postgres(uri)` opens through `PersistentContainer(schema:location:)` as through `(schema:postgres:)`.
    @Test(.enabled(if: TestStore.all.contains(.postgres)))
    func aPostgresLocationOpensThroughTheGenericInitializer() async throws {
        let location = try await TestStore.postgres.makeLocation()
        let schema = try Schema([Item.self])
        let container = try await blockingWork { try PersistentContainer(schema: schema, location: location) }
        #expect(container.location == location)
        try await container.performBackgroundTask { context in
            context.insert(Item.self)[Item.uid] = 7
            try await context.save()
        }
        let count = try await container.newBackgroundContext().perform { try $0.count(for: FetchRequest(Item.self)) }
        #expect(count == 1)
        try container.close()
    }

    /// A driver's error keeps its message and equality through `StoreError.driver`.
    @Test func aDriversErrorSaysWhatItSaidBefore() {
        let error = StoreError.notADatabase(path: "/tmp/notes.sqlite")
        #expect(error == .driver(path: "/tmp/notes.sqlite", error: SQLiteStoreError.notADatabase))
        #expect(error != .noDatabase(path: "/tmp/notes.sqlite", database: "notes"))
        #expect(error.description == "/tmp/notes.sqlite is not a SQLite database; name another file, or move this one away to start a new store")
        #expect(StoreError.noDatabase(path: "postgresql://db/x", database: "x").driverError?.kind == .noInput)
        #expect(StoreError.sqlite(path: "p", code: 10, message: "disk I/O error").description == "p: SQLite error 10: disk I/O error")
    }
}
