import StillpointCore
import StillpointPostgres

/// A following command (`report --watch`, `sessions --live`) hears nothing while a PostgreSQL store's server is
/// away, and reconnects by itself: it says so on standard error once when the server goes, and once when it is back.
///
/// A store replaced while it is followed (its database dropped and made again) is not caught up with: what is
/// shown came from the old store, and the new one's changes would be added to it. `replaced` is called instead,
/// once, and the command stops with ``replacedFailure(of:)``.
///
/// ```swift
/// ServerNotices.install(on: container) { watch.stop() }
/// ```
enum ServerNotices {
    static func install(on container: PersistentContainer, replaced: @escaping @Sendable () -> Void = {}) {
        guard let postgres = container.store as? PostgresStore else { return }
        let place = container.location.displayPath
        postgres.observeListener { event in
            switch event {
            case .lost(let detail):
                Output.printError("lost the PostgreSQL server at \(place) (\(detail)); still watching: reconnecting until "
                                  + "it is back, then catching up with what changed")
            case .back:
                Output.printError("the PostgreSQL server at \(place) is back; watching the store for changes")
            case .replaced:
                replaced()
            }
        }
    }

    /// How a following command ends when its store was replaced under it: it says so, and that running it again
    /// shows the new store (`EX_TEMPFAIL`).
    static func replacedFailure(of container: PersistentContainer) -> ToolFailure {
        ToolFailure("the store at \(container.location.displayPath) was replaced while it was followed (its database was "
                    + "dropped and made again), so what was shown is of the old store; run the command again to see the new one",
                    status: .temporaryFailure)
    }
}
