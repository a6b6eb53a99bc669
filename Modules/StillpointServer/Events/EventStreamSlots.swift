import Foundation
import StillpointCore

/// The event streams the server may hold open at once (``ServerLimits/maximumEventStreams``): each holds a
/// connection and a subscription for as long as its client stays, so beyond the cap a client is told to come back.
///
/// ```swift
/// guard slots.take() else { throw Problem(.serviceUnavailable, ...) }
/// defer { slots.give() }
/// ```
final class EventStreamSlots: Sendable {
    let limit: Int
    private let open = LockedState(0)

    init(limit: Int) {
        self.limit = limit
    }

    /// Takes a slot; `false` when all are taken.
    func take() -> Bool {
        open.withLock { open in
            guard open < limit else { return false }
            open += 1
            return true
        }
    }

    /// Gives back a slot taken.
    func give() {
        open.withLock { $0 = max(0, $0 - 1) }
    }

    /// The streams open now.
    var count: Int { open.withLock { $0 } }
}
