import StillpointCore
import StillpointPostgres

/// A following command (`report --watch`, `sessions --live`) hears nothing while a PostgreSQL store's server is
/// away, and reconnects by itself: it says so on standard error once when the server goes, and once when it is back.
enum ServerNotices {
    static func install(on container: PersistentContainer) {
        guard let postgres = container.store as? PostgresStore else { return }
        let place = container.location.displayPath
        postgres.observeListener { event in
            switch event {
            case .lost(let detail):
                Output.printError("lost the PostgreSQL server at \(place) (\(detail)); still watching: reconnecting until "
                                  + "it is back, then catching up with what changed")
            case .back:
                Output.printError("the PostgreSQL server at \(place) is back; watching the store for changes")
            }
        }
    }
}
