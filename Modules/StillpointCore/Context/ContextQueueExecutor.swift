import Dispatch

/// The serial executor of a background context: a dispatch queue of its own.
///
/// Blocking SQLite calls then run on the queue's thread, never on the cooperative pool, and a synchronous
/// `performAndWait` can enter the context with `queue.sync`. Jobs run under ``BackgroundScheduling``, so that
/// the main actor stays responsive while they run.
final class ContextQueueExecutor: SerialExecutor {
    let queue: DispatchQueue
    private let key = DispatchSpecificKey<Bool>()

    init(label: String) {
        queue = DispatchQueue(label: label)
        queue.setSpecific(key: key, value: true)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { BackgroundScheduling.run { job.runSynchronously(on: executor) } }
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// Whether the current thread is running on this executor's queue.
    var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == true }

    func checkIsolated() {
        dispatchPrecondition(condition: .onQueue(queue))
    }
}
