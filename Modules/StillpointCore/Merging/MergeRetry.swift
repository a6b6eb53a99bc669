/// A context's automatic merge whose read failed (the server cancelled it, a connection dropped): the change
/// set waits at the head of the context's queue and is merged again after a pause that doubles up to a second,
/// for up to ``giveUpAfter``, so that an object does not stay stale until some later change set comes.
///
/// ```swift
/// var retry = MergeRetry(now: .now)
/// retry.nextPause()   // 50 ms, then 100 ms, 200 ms, ... 1 s
/// ```
struct MergeRetry {
    /// How long a change set whose merge keeps failing is tried before it is passed over, as before this
    /// retry existed (``ObjectContext/lastMergeError`` keeps the error).
    static let giveUpAfter = Duration.seconds(60)

    /// When the merge of the change set at the head first failed.
    let since: ContinuousClock.Instant
    private var pause = Duration.milliseconds(50)
    /// The pending retry, cancelled when automatic merging is turned off or the context goes.
    var task: Task<Void, Never>?

    init(now: ContinuousClock.Instant) {
        since = now
    }

    /// Whether the change set has failed for so long that it is passed over.
    func hasExpired(at now: ContinuousClock.Instant) -> Bool {
        now - since >= Self.giveUpAfter
    }

    /// The pause before the next attempt.
    mutating func nextPause() -> Duration {
        defer { pause = min(pause * 2, .seconds(1)) }
        return pause
    }
}
