import Dispatch

/// The store read one live results need for a change set, planned on the context's executor and run off it, so
/// that a context that merges automatically (the view context: the main actor) never waits for the store: it
/// only applies the rows when they come (``LiveResultsEngine/prepare(_:)``).
///
/// The read depends only on the request and the changed row ids, not on the rows the results hold; it is used
/// only if the results took in nothing else meanwhile (`stamp`), else the merge reads as before.
///
/// ```swift
/// let reads = graph.changeObservers.reads(for: changeSet)
/// let outcomes = await LiveResultsRead.run(reads, on: store, interruptedBy: flag)
/// graph.changeObservers.prepare(outcomes)
/// ```
struct LiveResultsRead: Sendable {
    /// The observer (live results) the read is for.
    let observer: UInt64
    /// The engine's count of change sets taken in when the read was planned.
    let stamp: Int
    let changeSet: ChangeSet
    let request: FetchRequest
    /// The changed rows to read as candidates; `nil` for a read of the whole result (a refetch).
    let candidates: Set<Int64>?
    /// Whether the window is read too, for a window that rows may leave (its refill).
    let readsWindow: Bool

    /// What the read found.
    struct Rows: Sendable {
        var candidates: [Int64: LiveRow] = [:]
        /// The request's rows (its window, if it has a limit), when the plan asked for them.
        var window: [LiveRow]?
    }

    func run(_ reader: any StoreReader) throws -> Rows {
        var rows = Rows()
        if let candidates, !candidates.isEmpty {
            rows.candidates = try LiveResultsEngine.candidates(of: request, among: candidates, reader: reader)
        }
        if readsWindow || candidates == nil {
            rows.window = try LiveResultsEngine.fetch(request, reader: reader)
        }
        return rows
    }

    /// Reads blocks on the store (libpq waits for the server): on threads of their own, not the shared pool's.
    private static let queue = DispatchQueue(label: "stillpoint.live-results.read", qos: .userInitiated, attributes: .concurrent)

    /// Runs `reads` in one read transaction of the latest state, off the caller's executor.
    static func run(_ reads: [LiveResultsRead], on store: any StoreDriver,
                    interruptedBy flag: InterruptFlag) async -> [(read: LiveResultsRead, rows: Result<Rows, any Error>)] {
        await withCheckedContinuation { continuation in
            queue.async {
                do {
                    let outcomes = try store.reading(interruptedBy: flag) { reader in
                        reads.map { read in (read, Result { try read.run(reader) }) }
                    }
                    continuation.resume(returning: outcomes)
                } catch {
                    continuation.resume(returning: reads.map { ($0, .failure(error)) })
                }
            }
        }
    }
}
