/// What a context tells the observers of the changes it takes in: a store change set it merged (automatically,
/// by hand, from history, after a batch operation) or saved itself. Used only on the context's executor.
///
/// Empty unless live results observe the context, so that a merge nobody watches costs one check.
struct ChangeObservers {
    private var observers: [(id: UInt64, engine: LiveResultsEngine)] = []
    private var lastID: UInt64 = 0

    var isEmpty: Bool { observers.isEmpty }

    /// Adds an observer and returns the number that removes it.
    mutating func add(_ engine: LiveResultsEngine) -> UInt64 {
        lastID += 1
        observers.append((lastID, engine))
        return lastID
    }

    mutating func remove(_ id: UInt64) {
        observers.removeAll { $0.id == id }
    }

    func notify(_ changeSet: ChangeSet, graph: ObjectGraph) {
        for observer in observers { observer.engine.take(changeSet, graph: graph) }
    }

    /// The reads the observers will need for `changeSet`, to run before the context takes it in.
    func reads(for changeSet: ChangeSet) -> [LiveResultsRead] {
        observers.compactMap { $0.engine.read(for: changeSet, observer: $0.id) }
    }

    /// Hands each observer what its read found, for its next take.
    func prepare(_ outcomes: [(read: LiveResultsRead, rows: Result<LiveResultsRead.Rows, any Error>)]) {
        for outcome in outcomes {
            observers.first { $0.id == outcome.read.observer }?.engine.prepare(outcome.read, rows: outcome.rows)
        }
    }
}
