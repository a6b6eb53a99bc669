/// What the commit listener says about its connection to the server, for a watcher to tell its user: once when
/// it loses the server (it then keeps trying), once when it is back (and has caught up), and once when the store
/// it follows was replaced by another (it then stops).
///
/// ```swift
/// store.observeListener { event in
///     if case .lost(let detail) = event { print("the server went away (\(detail)); retrying") }
/// }
/// ```
package enum PostgresListenerEvent: Sendable, Equatable {
    /// The listener lost its connection, or could not make it; `detail` is libpq's message, without a password.
    case lost(detail: String)
    /// The listener is connected and listening again after a ``lost(detail:)``.
    case back
    /// The store is not the one the listener started on: its database (or its change log) was dropped and made
    /// again. The listener stops without ringing, since the new store's changes do not follow the old one's.
    case replaced
}
