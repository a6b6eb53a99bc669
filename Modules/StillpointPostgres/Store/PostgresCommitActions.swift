/// What a write transaction runs once it has committed (publishing its change sets), dropped when it rolls back.
///
/// ```swift
/// let actions = PostgresCommitActions()
/// try connection.transaction { actions.append { hub.publish(changeSet) } }
/// actions.run()
/// ```
package final class PostgresCommitActions {
    private var actions: [@Sendable () -> Void] = []

    package init() {}

    package func append(_ action: @escaping @Sendable () -> Void) {
        actions.append(action)
    }

    /// Runs the actions in the order they came, once.
    package func run() {
        let pending = actions
        actions.removeAll()
        for action in pending { action() }
    }

    package func discard() {
        actions.removeAll()
    }
}
