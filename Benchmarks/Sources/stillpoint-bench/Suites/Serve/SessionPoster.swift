import Foundation
import Synchronization

/// Posts one session at a time to random practitioners of a `serve` store at a steady rate, on a thread of its
/// own, until stopped: the writes beside `get-report-writing`'s reads.
///
/// ```swift
/// let poster = SessionPoster(port: server.port, store: store, perSecond: 100)
/// try await load()
/// poster.stop()
/// let posted = try poster.result()   // sent, saved, seconds
/// ```
final class SessionPoster: Sendable {
    struct Posted: Sendable {
        var sent = 0
        var saved = 0
        var seconds = 0.0
        var failure: String?
    }

    private let state = Mutex(Posted())
    private let stopped = Mutex(false)
    private let finished = Mutex(false)

    init(port: Int, store: ServeSuite.Fixture.Store, perSecond: Double) {
        let interval = 1 / perSecond
        let started = Date()
        Thread { [self] in
            defer { finished.withLock { $0 = true } }
            let connection: LoopbackConnection
            do {
                connection = try LoopbackConnection(port: port)
            } catch {
                state.withLock { $0.failure = "\(error)" }
                return
            }
            var index = 0
            var random = SystemRandomNumberGenerator()
            while !stopped.withLock({ $0 }) {
                let id = PractitionerData.id(Int.random(in: 0..<store.n, using: &random))
                do {
                    let answer = try connection.send("POST", "/v1/practitioners/\(id)/sessions", token: store.token(id),
                                                     body: Self.body(seed: Int.random(in: 0..<1_000_000, using: &random)))
                    state.withLock { posted in
                        posted.sent += 1
                        if answer.status == 201 { posted.saved += 1 } else if posted.failure == nil { posted.failure = "\(answer.status): \(answer.text.prefix(300))" }
                    }
                } catch {
                    state.withLock { $0.failure = "\(error)" }
                    break
                }
                index += 1
                // On a fixed schedule: a slow answer is made up for by the next one going at once.
                let wait = started.addingTimeInterval(Double(index) * interval).timeIntervalSinceNow
                if wait > 0 { usleep(UInt32(wait * 1_000_000)) }
            }
            state.withLock { $0.seconds = Date().timeIntervalSince(started) }
        }.start()
    }

    /// Asks the thread to stop after the post under way, and waits for it.
    func stop() {
        stopped.withLock { $0 = true }
        while !finished.withLock({ $0 }) { usleep(1_000) }
    }

    /// What was posted, or the first failure.
    func result() throws -> Posted {
        let posted = state.withLock { $0 }
        if let failure = posted.failure { throw SessionBench.Failure("posting sessions failed: \(failure)") }
        return posted
    }

    /// One new session, unique by its key: a day after the data's last (so the data's sessions stay as they are).
    static func body(seed: Int) -> String {
        let day = PractitionerData.lastDay + 1 + seed % 30
        let start = PractitionerData.localText(day: day, seconds: 18_000 + seed % 50_000) + "Z"
        return #"[{"start": "\#(start)", "duration": 600, "kind": "yoga", "key": "bench-\#(UUID().uuidString)"}]"#
    }
}
