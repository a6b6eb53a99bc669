import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import StillpointServer

/// `/healthz` and `/readyz`, on each store.
@Suite("health routes")
struct HealthRoutesTests {
    @Test(arguments: ServerTestStore.kinds)
    func healthAndReadinessAnswer(_ kind: ServerTestStore.Kind) async throws {
        try await ServerTestStore.withServer(kind) { client, _ in
            try await client.execute(uri: "/healthz", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body) == #"{"status":"ok"}"#)
            }
            try await client.execute(uri: "/readyz", method: .get) { response in
                #expect(response.status == .ok)
            }
        }
    }

    @Test func readinessIsA503ProblemWhenTheStoreIsClosed() async throws {
        try await ServerTestStore.withServer(.sqlite) { client, state in
            try state.container.close()
            try await client.execute(uri: "/readyz", method: .get) { response in
                #expect(response.status == .serviceUnavailable)
                #expect(response.headers[.contentType] == Problem.mediaType)
                #expect(response.headers[.retryAfter] == "5")
            }
        }
    }
}
