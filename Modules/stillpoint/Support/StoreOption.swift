import ArgumentParser
import Foundation
import Logging
import PracticeLog
import StillpointCore
import StillpointReport

/// `--store FILE`: the practice log to use, or the default store.
struct StoreOption: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The SQLite store of sessions.", discussion: "Without it, the default store (created on first use from a demo history).", valueName: "file"))
    var store: String?

    /// Opens the named store (created if it does not exist) or the default one.
    func open(fallback: String? = nil, logger: Logger) async throws -> PersistentContainer {
        if let path = store ?? fallback {
            let url = URL(fileURLWithPath: (path as NSString).expandingTildeInPath)
            logger.debug("opening the store \(url.path)")
            return try PersistentContainer(schema: Session.schema, location: .file(url))
        }
        let (container, created) = try await DefaultStore.open()
        if created {
            logger.notice("created the default store \(DefaultStore.url().path) from a demo history")
        }
        return container
    }
}
