import Dispatch

/// Holds a background context's object graph past the context, so that the graph is freed on the context's
/// own queue: its objects belong there, and dropping a context that holds 50,000 objects then does not hold up
/// the code that dropped it.
///
/// The graph is only touched again to be released, on the queue that owned it.
final class GraphCustody: @unchecked Sendable {
    private var graph: ObjectGraph?

    init(_ graph: ObjectGraph) {
        self.graph = graph
    }

    /// Frees the graph, once nothing else holds it, on `queue`.
    func release(on queue: DispatchQueue) {
        queue.async { self.graph = nil }
    }
}
