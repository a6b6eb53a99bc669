import Foundation

/// The changing state of one operation queue, kept behind its lock.
struct QueueState {
    struct Waiting {
        let operation: AnyContextOperation
        /// The order of enqueueing, which breaks ties between equal priorities.
        let sequence: Int
    }

    var maxConcurrentOperationCount: Int
    var dependencyFailurePolicy: DependencyFailurePolicy
    var isSuspended = false
    var waiting: [Waiting] = []
    var running: [ObjectIdentifier: AnyContextOperation] = [:]
    var nextSequence = 0
    var subscribers: [UUID: AsyncStream<ContextOperationEvent>.Continuation] = [:]
    var idleWaiters: [CheckedContinuation<Void, Never>] = []

    /// Publishes an event to every subscriber. Called under the queue's lock, so events keep their order.
    func emit(_ kind: ContextOperationEvent.Kind, of operation: AnyContextOperation) {
        let event = ContextOperationEvent(operation: operation, kind: kind)
        for subscriber in subscribers.values { subscriber.yield(event) }
    }
}
