import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Background contexts' jobs run at a lower scheduling priority than the main actor, so that it keeps its frames
/// while they keep the cores busy.
///
/// The threads are libdispatch's, shared with other work, so each job lowers its thread and restores it after.
/// On Linux, a thread can always be lowered, but raised back only with the right (`CAP_SYS_NICE`, or a high
/// enough `RLIMIT_NICE`): where the process has it, jobs run at nice +10; where it has not, under the batch
/// policy, which an unprivileged thread may enter and leave but which holds background work back less. A probe
/// on a thread of its own finds out which, once; if restoring a thread ever fails, jobs stop changing theirs.
///
/// The price: a lowered save holds the store's write lock at its lower priority, so on a saturated machine a
/// view-context save waiting for that lock waits a little longer. The main actor itself never waits for it.
enum BackgroundScheduling {
    enum Mode {
        /// Nice +10 for the job: about a tenth of the main actor's share of a busy core.
        case lowerPriority
        /// `SCHED_BATCH` for the job: never preempts a normal thread that wakes.
        case batchPolicy
        /// Jobs run as they are (not Linux, or neither change is allowed).
        case unchanged
    }

    static let mode: Mode = probe()
    /// Set if a thread could not be restored: from then on, jobs leave their threads alone.
    private static let gaveUp = Atomic<Bool>(false)

    static func run(_ job: () -> Void) {
        #if os(Linux)
        guard !gaveUp.load(ordering: .relaxed) else { return job() }
        switch mode {
        case .lowerPriority:
            // `who` 0 is the calling thread, on Linux; -1 is a valid nice value, so errno tells failure.
            let which = __priority_which_t(PRIO_PROCESS.rawValue)
            errno = 0
            let nice = getpriority(which, 0)
            let entered = errno == 0 && setpriority(which, 0, min(19, nice + niceIncrement)) == 0
            job()
            if entered, setpriority(which, 0, nice) != 0 { gaveUp.store(true, ordering: .relaxed) }
        case .batchPolicy:
            var parameters = sched_param(sched_priority: 0)
            let entered = sched_getscheduler(0) == SCHED_OTHER && sched_setscheduler(0, batchPolicy, &parameters) == 0
            job()
            if entered, sched_setscheduler(0, SCHED_OTHER, &parameters) != 0 { gaveUp.store(true, ordering: .relaxed) }
        case .unchanged:
            job()
        }
        #else
        job()
        #endif
    }

    #if os(Linux)
    private static let niceIncrement: Int32 = 10
    /// `SCHED_BATCH` in `<sched.h>`, which Swift does not import.
    private static let batchPolicy: Int32 = 3
    #endif

    /// Tries each change and its undoing on a thread made for it, which may be left lowered.
    private static func probe() -> Mode {
        #if os(Linux)
        let found = LockedState<Mode>(.unchanged)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            defer { done.signal() }
            let which = __priority_which_t(PRIO_PROCESS.rawValue)
            if getpriority(which, 0) == 0, setpriority(which, 0, niceIncrement) == 0, setpriority(which, 0, 0) == 0 {
                found.withLock { $0 = .lowerPriority }
                return
            }
            var parameters = sched_param(sched_priority: 0)
            if sched_setscheduler(0, batchPolicy, &parameters) == 0, sched_setscheduler(0, SCHED_OTHER, &parameters) == 0 {
                found.withLock { $0 = .batchPolicy }
            }
        }
        done.wait()
        return found.withLock { $0 }
        #else
        return .unchanged
        #endif
    }
}
