import ArgumentParser
import Foundation
import Logging
import PracticeLog
import StillpointCore
import StillpointSQLite
import StillpointPostgres
import StillpointReport
import StillpointDefaultStore

/// `--store FILE` or `--store postgresql://...`: the practice log to use, or the default store.
struct StoreOption: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The store of sessions: a SQLite file, or a PostgreSQL database's URI.", discussion: "Without it, the default store (created on first use from a demo history). A PostgreSQL store is named by a libpq URI, postgresql://user@host:port/database, or libpq's keyword=value pairs ('host=... dbname=...'; a file of such a name is written ./name=x.sqlite), with libpq's usual parameters and environment (PGPASSWORD, PGHOST, ...); percent-encode a /, ?, @, : or % in a URI's password. report, export and check open it read-only: they never wait for an import that is running, and refuse a store that does not exist.", valueName: "file-or-uri"))
    var store: String?

    /// Whether `text` names a PostgreSQL database rather than a file: a URI in any case, or libpq's
    /// `keyword=value` pairs, which must never become a file's name (``StoreLocation/isPostgresName(_:)``).
    static func isServerURI(_ text: String) -> Bool {
        StoreLocation.isPostgresName(text)
    }

    /// The SQL the named store speaks, so that `--where` is checked as that store will compile it (PostgreSQL
    /// refuses a few forms that SQLite answers, such as MATCHES '\\w+') before anything is opened.
    var sqlDialect: SQLDialect {
        store.map(Self.isServerURI) == true ? .postgreSQL : .sqlite
    }

    /// What a command does with the store.
    enum Use {
        /// Reads only (report, export, check): the store is opened read-only, never waits for a writer, and must
        /// exist already.
        case reading
        /// Writes sessions (import, demo): the store is created or upgraded as needed.
        case writing
        /// Changes a store that must exist already (`imports remove`): never makes one.
        case changing
    }

    /// Opens the named store or the default one, read-only unless the command writes. Standard output or error
    /// opened onto the store's files is refused first (``StoreFiles/refuseStandardStreams()``), and another
    /// program's SQLite database is refused untouched unless `addingToForeignDatabase` (a writing command's
    /// `--add-to-foreign-database`) says to add the store's tables to it.
    ///
    /// ```swift
    /// let container = try await storeOption.open(for: .writing, logger: logger)
    /// ```
    func open(fallback: String? = nil, for use: Use = .reading, addingToForeignDatabase: Bool = false,
              logger: Logger) async throws -> PersistentContainer {
        try refuseStandardStreams(fallback: fallback)
        let container = try await openContainer(fallback: fallback, for: use, addingToForeignDatabase: addingToForeignDatabase,
                                                logger: logger)
        Self.closeAtExit(container)
        return container
    }

    private func openContainer(fallback: String?, for use: Use, addingToForeignDatabase: Bool = false,
                               logger: Logger) async throws -> PersistentContainer {
        if use == .changing {
            try await openContainer(fallback: fallback, for: .reading, logger: logger).close()
            return try await openContainer(fallback: fallback, for: .writing, logger: logger)
        }
        if let uri = store ?? fallback, Self.isServerURI(uri) {
            let location = StoreLocation.postgres(uri)
            logger.debug("opening the PostgreSQL store \(location.displayPath) \(use == .reading ? "read-only" : "for writing")")
            let open = { (access: StoreAccess) in try PersistentContainer(schema: Session.schema, postgres: uri, access: access) }
            do {
                do {
                    return try open(use == .reading ? .readOnly : .readWrite)
                } catch StoreError.needsUpgrade where use == .reading {
                    // As `PersistentContainer.reading` does for a SQLite store: a store of an older format is upgraded
                    // by a short read-write open, the only write a reading command makes.
                    logger.debug("upgrading the PostgreSQL store \(location.displayPath) to format \(PersistentContainer.storeFormatVersion)")
                    try open(.readWrite).close()
                    return try open(.readOnly)
                }
            } catch StoreError.noStore {
                throw ToolFailure("there is no store in \(location.displayPath); make one with `stillpoint import FILE --store URI` "
                                  + "or `stillpoint demo --store URI`", status: .noInput)
            } catch StoreError.noDatabase(_, let database) {
                // Like a store file that is not there, but neither import nor demo can make a database.
                let then = use == .reading
                    ? ", then make the store with `stillpoint import FILE --store URI` or `stillpoint demo --store URI`"
                    : ", then run this command again"
                throw ToolFailure("there is no store at \(location.displayPath): the database \(database) does not exist on the server; "
                                  + "create it with `createdb \(database)` (on that server, as a user who may)" + then, status: .noInput)
            }
        }
        if let path = store ?? fallback {
            let url = URL(fileURLWithPath: (path as NSString).expandingTildeInPath)
            logger.debug("opening the store \(url.path) \(use == .reading ? "read-only" : "for writing")")
            switch use {
            case .writing, .changing:
                do {
                    return try PersistentContainer(schema: Session.schema, location: .file(url),
                                                   addingToForeignDatabase: addingToForeignDatabase)
                } catch let error as StoreError {
                    guard case .foreignDatabase = error else { throw error }
                    throw ToolFailure(error.description + "; or give --add-to-foreign-database to add Stillpoint's tables "
                                      + "beside its own", status: .dataError)
                }
            case .reading:
                do {
                    return try PersistentContainer.reading(schema: Session.schema, url: url)
                } catch StoreError.noStore {
                    throw ToolFailure("there is no store at \(path); make one with `stillpoint import FILE --store \(path)` "
                                      + "or `stillpoint demo --store \(path)`", status: .noInput)
                }
            }
        }
        let (container, created) = try await DefaultStore.open(access: use == .reading ? .readOnly : .readWrite)
        if created {
            logger.notice("created the default store \(DefaultStore.url().path) from a demo history")
        }
        return container
    }

    /// The containers to close when the process exits, however a command ends (returning, or `exit` after an
    /// error): closing folds the WAL into the file and marks the store closed cleanly, so that the next open
    /// need not check its integrity. A killed process closes nothing, and its next open checks.
    private static let openContainers = LockedState<[PersistentContainer]>([])

    private static func closeAtExit(_ container: PersistentContainer) {
        let first = openContainers.withLock { containers in
            containers.append(container)
            return containers.count == 1
        }
        guard first else { return }
        atexit {
            let containers = StoreOption.openContainers.withLock { containers in
                defer { containers = [] }
                return containers
            }
            for container in containers { try? container.close() }
        }
    }
}
