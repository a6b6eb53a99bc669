import Foundation
import StillpointReport
import StillpointDefaultStore

extension StoreOption {
    /// The file of the store the command uses: `--store`, else `fallback` (a manifest's `store`), else the
    /// default store.
    func storeURL(fallback: String? = nil) -> URL {
        guard let path = store ?? fallback else { return DefaultStore.url() }
        return URL(fileURLWithPath: (path as NSString).expandingTildeInPath)
    }

    /// Whether the store is a PostgreSQL database (`--store`, else `fallback`, is a URI).
    func isServer(fallback: String? = nil) -> Bool {
        (store ?? fallback).map(Self.isServerURI) ?? false
    }

    /// Refuses, before anything is written, standard output or standard error opened onto the store's files
    /// (a SQLite store's; a PostgreSQL database has none).
    ///
    /// ```swift
    /// try storeOption.refuseStandardStreams()   // `stillpoint report --store s.sqlite 1<>s.sqlite`: refused, 73
    /// ```
    func refuseStandardStreams(fallback: String? = nil) throws {
        guard !isServer(fallback: fallback) else { return }
        try StoreFiles(store: storeURL(fallback: fallback)).refuseStandardStreams()
    }

    /// Refuses, before anything is read, an output that would overwrite the store or one of its companion
    /// files, or that cannot be created.
    func refuse(output: String, option: String = "--output", fallback: String? = nil) throws {
        if !isServer(fallback: fallback) {
            try StoreFiles(store: storeURL(fallback: fallback)).refuse(output: output, option: option)
        }
        try Output.refuseUnwritable(output, option: option)
    }
}
