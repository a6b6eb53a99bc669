import Foundation
import Logging
import PracticeLog
import StillpointCore
import StillpointDefaultStore
import StillpointPostgres
import StillpointSQLite

/// Opens the store the server serves, for reading and writing (the administration routes write): a PostgreSQL
/// URI, a SQLite file that exists, or the default store, made from a demo history on first use as `stillpoint
/// report` makes it.
///
/// ```swift
/// let container = try await ServerStore.open(configuration.store, logger: logger)
/// ```
public enum ServerStore {
    public static func open(_ store: String?, logger: Logger) async throws -> PersistentContainer {
        if let store, StoreLocation.isPostgresName(store) {
            logger.info("opening the PostgreSQL store", metadata: ["store": "\(StoreLocation.postgres(store).displayPath)"])
            return try PersistentContainer(schema: Session.schema, postgres: store, access: .readWrite)
        }
        if let store {
            let url = URL(fileURLWithPath: (store as NSString).expandingTildeInPath)
            // A server never makes a store of a mistyped name: `stillpoint import` or `demo` makes one.
            guard FileManager.default.fileExists(atPath: url.path) else { throw StoreError.noStore(path: url.path) }
            logger.info("opening the store", metadata: ["store": "\(url.path)"])
            return try PersistentContainer(schema: Session.schema, location: .file(url))
        }
        let (container, created) = try await DefaultStore.open(access: .readWrite)
        logger.info(created ? "created the default store from a demo history" : "opening the default store",
                    metadata: ["store": "\(DefaultStore.url().path)"])
        return container
    }
}
