import Foundation
import GRDB
import StillpointCore
import StillpointPostgres
import StillpointSQLite
import Testing

// The examples of the Stores article (StillpointCore.docc/Stores.md), compiled here; those on files run in a
// temporary folder. The PostgreSQL example names a server of its own and is compiled only: the PostgreSQL
// store's own tests open it on a throwaway server.

private typealias Session = ArticleSession.Session

private func locations(_ schema: Schema) throws -> (PersistentContainer, PersistentContainer) {
    let onDisk = try PersistentContainer(schema: schema, location: .file(URL(fileURLWithPath: "practice.sqlite")))
    let scratch = try PersistentContainer(schema: schema, location: .inMemory)
    return (onDisk, scratch)
}

private func reading(_ schema: Schema, storeURL: URL) throws -> PersistentContainer {
    let report = try PersistentContainer.reading(schema: schema, url: storeURL)
    return report
}

private func foreign(_ schema: Schema, appDatabase: URL) throws -> PersistentContainer {
    let container = try PersistentContainer(schema: schema, location: .file(appDatabase), addingToForeignDatabase: true)
    return container
}

private func postgres(_ schema: Schema, uri: String) throws -> (PersistentContainer, PersistentContainer) {
    let container = try PersistentContainer(schema: schema, postgres: "postgresql://app@db.example/practice")
    let reader = try PersistentContainer(schema: schema, postgres: uri, access: .readOnly)
    return (container, reader)
}

@Suite("Stores article")
struct StoresArticleTests {
    @Test func aStoreWrittenOnDiskIsReadBack() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let schema = try Schema([Session.self])
        let url = directory.appendingPathComponent("practice.sqlite")
        let writer = try PersistentContainer(schema: schema, location: .file(url))
        try await writer.performBackgroundTask { context in
            let session = context.insert(Session.self)
            session[Session.start] = Date()
            session[Session.duration] = 60
            try await context.save()
        }
        try writer.close()
        let report = try reading(schema, storeURL: url)
        #expect(try await report.performBackgroundTask { try $0.count(for: FetchRequest(Session.self)) } == 1)
        try report.close()
    }

    @Test func anApplicationsDatabaseTakesTheStoreBesideItsOwnTables() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("app.sqlite")
        // Another program's database, with a table of its own.
        try await DatabaseQueue(path: url.path).write { try $0.execute(sql: "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)") }
        let container = try foreign(try Schema([Session.self]), appDatabase: url)
        #expect(try await container.performBackgroundTask { try $0.count(for: FetchRequest(Session.self)) } == 0)
        try container.close()
    }
}
