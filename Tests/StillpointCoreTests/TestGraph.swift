@testable import StillpointCore

/// A context's state on an in-memory store, for tests of the types it is made of; used on one thread only.
func makeGraph() throws -> ObjectGraph {
    ObjectGraph(store: try makeContainer(at: .inMemory).store, hub: ChangeSetHub(), name: "test", interruptFlag: InterruptFlag(), parentSnapshot: nil)
}
