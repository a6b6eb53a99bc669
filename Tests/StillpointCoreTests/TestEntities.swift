import Foundation
@testable import StillpointCore
import StillpointPostgres
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

/// The sessions of `FetchPredicateSQLTests`' fixture as an entity, every attribute optional, `number` the row's id.
enum PredicateSession: Entity {
    static let number = Attribute<Int>("number")
    static let kind = Attribute<String?>("kind")
    static let title = Attribute<String?>("title")
    static let tag = Attribute<String?>("tag")
    static let duration = Attribute<Int?>("duration")
    static let score = Attribute<Double?>("score")
    static let done = Attribute<Bool?>("done")
    static let start = Attribute<Date?>("start")
    static let uid = Attribute<UUID?>("uid")
    static let blob = Attribute<Data?>("blob")
    static let entity = EntityDescription("Session", attributes: [number, kind, title, tag, duration, score, done, start, uid, blob])
}

/// A fresh temporary folder, removed by the caller.
func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("stillpoint-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// A container on a new, empty store of the kind `store` names.
func makeContainer(_ store: TestStore, entities: [any Entity.Type] = [Item.self, Row3.self, Kitchen.self]) async throws -> PersistentContainer {
    let location = try await store.makeLocation()
    guard store == .postgres else { return try makeContainer(at: location, entities: entities) }
    let schema = try Schema(entities)
    return try await blockingWork { try openContainer(schema: schema, location: location) }
}

/// Opens `location` with the store target it needs: StillpointPostgres for a server, StillpointSQLite otherwise.
func openContainer(schema: Schema, location: StoreLocation, access: StoreAccess = .readWrite) throws -> PersistentContainer {
    if let uri = location.postgresURI { return try PersistentContainer(schema: schema, postgres: uri, access: access) }
    return try PersistentContainer(schema: schema, location: location, access: access)
}

/// A container on the store at `location`, for tests that open one store twice (as a second process would).
func makeContainer(at location: StoreLocation, entities: [any Entity.Type] = [Item.self, Row3.self, Kitchen.self]) throws -> PersistentContainer {
    try openContainer(schema: try Schema(entities), location: location)
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

extension PersistentContainer {
    /// The SQLite store under the container, for tests that look at its tables directly.
    var sqliteStore: Store {
        get throws { try #require(store as? Store, "the container's store is not SQLite") }
    }
}
