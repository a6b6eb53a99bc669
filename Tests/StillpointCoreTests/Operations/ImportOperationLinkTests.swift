import Foundation
@testable import StillpointCore
import Testing

/// ``ImportOperation/Link``: every row an import meets is linked to one object through a many-to-many, new,
/// changed or unchanged, once, in the batch's transaction; on every store (PostgreSQL's through `COPY`).
@Suite("Import operation links")
struct ImportOperationLinkTests {
    private func photos(_ files: ClosedRange<Int>) -> [ImportRecord] {
        files.map { ImportRecord(["file": .string("photo \($0)")], position: $0) }
    }

    /// Imports `records` of Photo keyed by file, linking each to `album` through `albums`.
    private func run(_ records: [ImportRecord], linkingTo album: ObjectID, batchSize: Int = 3,
                     in container: PersistentContainer) async throws -> ImportSummary {
        let operation = ImportOperation(entity: Photo.entity, key: ["file"], batchSize: batchSize,
                                        linking: .init("albums", to: album)) { ImportRecordArraySource(records: records) }
        let queue = ContextOperationQueue(container: container)
        queue.addOperation(operation)
        return try await operation.value
    }

    private func albums(in container: PersistentContainer) async throws -> (a: ObjectID, b: ObjectID) {
        try await container.performBackgroundTask { context in
            let a = context.insert(Album.self), b = context.insert(Album.self)
            a[Album.name] = "a"
            b[Album.name] = "b"
            try await context.save()
            return (a.objectID, b.objectID)
        }
    }

    @Test(arguments: TestStore.all) func everyRowTheImportMeetsIsLinkedOnce(store: TestStore) async throws {
        let container = try await makeContainer(store, entities: [Album.self, Photo.self])
        let (a, b) = try await albums(in: container)

        #expect(try await run(photos(1...4), linkingTo: a, in: container).inserted == 4)
        // Photos 3 and 4 are there already: unchanged, and linked to b as well.
        let second = try await run(photos(3...6), linkingTo: b, in: container)
        #expect((second.inserted, second.unchanged) == (2, 2))
        // Again into a: nothing new, no link twice.
        #expect(try await run(photos(1...4), linkingTo: a, in: container).unchanged == 4)
        #expect(try container.integer(#"SELECT count(*) FROM "_Album_photos""#) == 8)

        try await container.newBackgroundContext().perform { context throws in
            let album = { (id: ObjectID) in try context.existingObject(with: id)[Album.photos].map { $0[Photo.file] }.sorted() }
            #expect(try album(a) == ["photo 1", "photo 2", "photo 3", "photo 4"])
            #expect(try album(b) == ["photo 3", "photo 4", "photo 5", "photo 6"])
            let three = try #require(try context.fetch(FetchRequest(Photo.self, predicate: try FetchPredicate("file == 'photo 3'"))).first)
            #expect(try three[Photo.albums].map { $0[Album.name] }.sorted() == ["a", "b"])
        }
    }

    @Test(arguments: TestStore.all) func aLinkThroughARelationshipThatIsNotManyToManyFailsTheImport(store: TestStore) async throws {
        let container = try await makeContainer(store, entities: [Album.self, Photo.self])
        let (a, _) = try await albums(in: container)
        let operation = ImportOperation(entity: Photo.entity, key: ["file"], linking: .init("file", to: a)) {
            ImportRecordArraySource(records: photos(1...2))
        }
        let queue = ContextOperationQueue(container: container)
        queue.addOperation(operation)
        await #expect(throws: ImportOperationError.self) { try await operation.value }
        #expect(try container.integer(#"SELECT count(*) FROM "Photo""#) == 0)
    }
}
