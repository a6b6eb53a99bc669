/// What a context tells the observers of the changes it takes in: a store change set it merged (automatically,
/// by hand, from history, after a batch operation) or saved itself. Used only on the context's executor.
///
/// Empty unless live results observe the context, so that a merge nobody watches costs one check.
struct ChangeObservers {
    typealias Observer = (ChangeSet, ObjectGraph) -> Void

    private var observers: [(id: UInt64, body: Observer)] = []
    private var lastID: UInt64 = 0

    var isEmpty: Bool { observers.isEmpty }

    /// Adds an observer and returns the number that removes it.
    mutating func add(_ body: @escaping Observer) -> UInt64 {
        lastID += 1
        observers.append((lastID, body))
        return lastID
    }

    mutating func remove(_ id: UInt64) {
        observers.removeAll { $0.id == id }
    }

    func notify(_ changeSet: ChangeSet, graph: ObjectGraph) {
        for observer in observers { observer.body(changeSet, graph) }
    }
}
