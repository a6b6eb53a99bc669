import Foundation
import Hummingbird
import PracticeLog
import StillpointCore

/// `GET /healthz` (the process answers) and `GET /readyz` (the store answers too).
enum HealthRoutes {
    static func add(to router: Router<BasicRequestContext>, _ state: ServerState) {
        state.routes.add(.get, "/healthz", on: router) { _, _ in
            try JSONAnswer.response(["status": "ok"])
        }
        state.routes.add(.get, "/readyz", on: router) { _, _ in
            do {
                _ = try await state.container.newBackgroundContext(name: "readiness").perform { context in
                    try context.count(for: FetchRequest(Practitioner.self, limit: 1))
                }
            } catch {
                state.logger.warning("the store did not answer the readiness check", metadata: ["error": "\(error)"])
                throw Problem(.serviceUnavailable, "the store \(state.container.location.displayPath) does not answer; "
                              + "the server is up but cannot serve reports until it does", headers: [.retryAfter: "5"])
            }
            return try JSONAnswer.response(["status": "ready"])
        }
    }
}
