import Foundation
@testable import StillpointCore
@testable import StillpointSQLite
import Testing

/// The entities the core's tests work with.
enum Item: Entity {
    static let uid = Attribute<Int32>("uid")
    static let title = Attribute<String>("title", default: "")
    static let score = Attribute<Double?>("score")
    static let entity = EntityDescription(
        "Item", attributes: [uid, title, score], indexes: [IndexDescription([uid], isUnique: true)])
}

enum Row3: Entity {
    static let a = Attribute<Int>("a")
    static let b = Attribute<Int>("b")
    static let c = Attribute<Int>("c")
    static let entity = EntityDescription("Row3", attributes: [a, b, c])
}

enum Kitchen: Entity {
    static let integer = Attribute<Int64>("integer")
    static let double = Attribute<Double>("double")
    static let string = Attribute<String>("string")
    static let bool = Attribute<Bool>("bool")
    static let date = Attribute<Date>("date")
    static let uuid = Attribute<UUID>("uuid")
    static let binary = Attribute<Data>("binary")
    static let note = Attribute<String?>("note")
    static let entity = EntityDescription("Kitchen", attributes: [integer, double, string, bool, date, uuid, binary, note])
}

/// A fresh temporary folder, removed by the caller.
func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("stillpoint-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

func makeContainer(_ location: StoreLocation = .inMemory, entities: [any Entity.Type] = [Item.self, Row3.self, Kitchen.self]) throws -> PersistentContainer {
    try PersistentContainer(schema: try Schema(entities), location: location)
}

/// Inserts items with uids `uids` and titles "item N", and saves.
func insertItems(_ uids: some Sequence<Int32> & Sendable, in container: PersistentContainer) async throws {
    try await container.performBackgroundTask { context in
        for uid in uids {
            let item = context.insert(Item.self)
            item[Item.uid] = uid
            item[Item.title] = "item \(uid)"
        }
        try await context.save()
    }
}

/// Both locations, for tests that must hold on a file and in memory.
func eachLocation(isolation: isolated (any Actor)? = #isolation, _ body: (StoreLocation) async throws -> Void) async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    try await body(.inMemory)
    try await body(.file(directory.appendingPathComponent("store.sqlite")))
}

extension PersistentContainer {
    /// The SQLite store under the container, for tests that look at its tables directly.
    var sqliteStore: Store {
        get throws { try #require(store as? Store, "the container's store is not SQLite") }
    }
}
