/// What the commit listener says about its connection to the server, for a watcher to tell its user: once when
/// it loses the server (it then keeps trying), once when it is back (and has caught up).
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
}
