import Foundation
import GRDB
@testable import StillpointCore
import StillpointSQLite
import StillpointTestSupport
import Testing

/// The examples of `StillpointSQLite.docc`'s articles, run: its landing page and "Opening a SQLite store".
@Suite struct OpeningASQLiteStoreArticleTests {
    enum Note: Entity {
        static let text = Attribute<String>("text")
        static let entity = EntityDescription("Note", attributes: [text])
    }

    let schema: Schema
    let folder: URL
    let storeURL: URL

    init() throws {
        schema = try Schema([Note.self])
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("sqlite-article-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        storeURL = folder.appendingPathComponent("practice.sqlite")
    }

    @Test func theLandingPageOpensAFile() throws {
        let container = try PersistentContainer(schema: schema, location: .file(storeURL))
        #expect(container.location.fileURL == storeURL)
        try container.close()
    }

    @Test func locationsAndReadOnlyOpens() async throws {
        let onDisk = try PersistentContainer(schema: schema, location: .file(storeURL))
        let scratch = try PersistentContainer(schema: schema, location: .inMemory)
        try await onDisk.performBackgroundTask { context in
            context.insert(Note.self)[Note.text] = "saved"
            try await context.save()
        }
        try onDisk.close()
        #expect(scratch.location == .inMemory)

        let reader = try PersistentContainer(schema: schema, location: .file(storeURL), access: .readOnly)
        let upgradedReader = try PersistentContainer.reading(schema: schema, url: storeURL)
        for container in [reader, upgradedReader] {
            let count = try await container.newBackgroundContext().perform { try $0.count(for: FetchRequest(Note.self)) }
            #expect(count == 1)
        }
    }

    @Test func anotherProgramsDatabaseIsRefusedUnlessTold() throws {
        let appDatabase = folder.appendingPathComponent("app.sqlite")
        try DatabaseQueue(path: appDatabase.path).write { db in try db.execute(sql: "CREATE TABLE notes (body TEXT)") }
        #expect { try PersistentContainer(schema: schema, location: .file(appDatabase)) } throws: { error in
            guard case SQLiteStoreError.foreignDatabase(let tables)? = (error as? StoreError)?.driverError as? SQLiteStoreError else { return false }
            return tables == ["notes"]
        }
        let shared = try PersistentContainer(schema: schema, location: .file(appDatabase), addingToForeignDatabase: true)
        #expect(shared.location == .file(appDatabase))
        try shared.close()
    }

    @Test func anErrorSaysWhatWasWrong() throws {
        let notesURL = folder.appendingPathComponent("notes.txt")
        try Data("plain text, long enough to be read as a database header, which it is not......".utf8).write(to: notesURL)
        do {
            _ = try PersistentContainer(schema: schema, location: .file(notesURL))
        } catch let error as StoreError {
            print(error)   // ".../notes.txt is not a SQLite database; name another file, or move this one away ..."
        }
        #expect { try PersistentContainer(schema: schema, location: .file(notesURL)) } throws: { error in
            (error as? StoreError)?.description
                == "\(notesURL.path) is not a SQLite database; name another file, or move this one away to start a new store"
        }
    }
}
