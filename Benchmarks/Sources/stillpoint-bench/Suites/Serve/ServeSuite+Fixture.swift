import Foundation
import Synchronization

extension ServeSuite {
    /// What the `serve` workloads share per size: the PostgreSQL store of N practitioners (the `practitioners`
    /// suite's, filled by `COPY`), each given a bearer token, and the instance the load workloads measure, started
    /// once and warmed with every practitioner's report.
    actor Fixture {
        static let shared = Fixture()

        struct Store: Sendable {
            let n: Int
            let uri: String
            let sessions: Int
            /// Practitioner `p00042`'s token is this and their id: only its hash is in the store, as for any token.
            let secret: String

            func token(_ id: String) -> String { secret + id }
        }

        /// The instance the load workloads measure, and how long warming every report took.
        struct Warm: Sendable {
            let server: ServedProcess
            let seconds: Double
        }

        private var stores: [Int: Store] = [:]
        private var warm: [Int: Warm] = [:]
        private var logs: TemporaryDirectory?

        /// The servers' logs and homes, a folder removed at exit.
        func logDirectory() throws -> URL {
            if let logs { return logs.url }
            let made = try TemporaryDirectory()
            SessionBench.Fixture.removeAtExit(made)
            logs = made
            return made.url
        }

        /// The store of `n` practitioners, made on first use: the `practitioners` suite's rows, then one token hash
        /// per practitioner (SHA-256 in hexadecimal, as `stillpoint-server` stores them) in one statement.
        func store(_ n: Int) async throws -> Store {
            if let made = stores[n] { return made }
            let peers = try await PractitionersSuite.Fixture.shared.peers(n)
            let secret = "bench-" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased() + "-"
            let raw = try RawPostgres(uri: peers.copyDatabase)
            try raw.execute(#"UPDATE "Practitioner" SET "tokenHash" = encode(sha256(convert_to('\#(secret)' || "id", 'UTF8')), 'hex')"#)
            let made = Store(n: n, uri: peers.copyDatabase, sessions: peers.sessions, secret: secret)
            stores[n] = made
            return made
        }

        /// A new `stillpoint-server` on the store of `n` practitioners, ready (its `/readyz` answers 200).
        func startServer(_ n: Int) async throws -> ServedProcess {
            let store = try await store(n)
            let logs = try logDirectory()
            return try await ServedProcess.start(try ServeSuite.executable("stillpoint-server"),
                                                 ["--store", store.uri, "--port", "{port}", "--log-level", "warning"],
                                                 environment: ["STILLPOINT_HOME": logs.path], readyPath: "/readyz", logIn: logs)
        }

        /// The instance the load workloads measure, started on first use and warmed: every practitioner's JSON
        /// report requested once (``ServeSuite/warmers`` at a time), so that every digest is held.
        func warmServer(_ n: Int) async throws -> Warm {
            if let made = warm[n] { return made }
            let store = try await store(n)
            let server = try await startServer(n)
            let seconds = try await Stopwatch.seconds {
                try await ServeSuite.onThreads(ServeSuite.warmers) { worker in
                    let connection = try LoopbackConnection(port: server.port)
                    for number in stride(from: worker, to: n, by: ServeSuite.warmers) {
                        let id = PractitionerData.id(number)
                        let answer = try connection.send("GET", ServeSuite.reportPath(id), token: store.token(id))
                        guard answer.status == 200 else { throw SessionBench.Failure("warming \(id) answered \(answer.status): \(answer.text.prefix(300))") }
                    }
                }
            }
            let made = Warm(server: server, seconds: seconds)
            warm[n] = made
            return made
        }
    }
}
