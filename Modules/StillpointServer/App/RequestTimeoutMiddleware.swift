import Foundation
import Hummingbird

/// Answers 503 when a request takes longer than the limit, cancelling its work: no request holds a worker for
/// longer (``ServerLimits/requestTimeout``).
struct RequestTimeoutMiddleware<Context: RequestContext>: RouterMiddleware {
    let timeout: Duration

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        // The group ends before this returns, so `next` never outlives the call.
        try await withoutActuallyEscaping(next) { next in
            let step = UnsafeNext(next)
            return try await withThrowingTaskGroup(of: Response?.self) { group in
                group.addTask { try await step.call(request, context) }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    return nil
                }
                defer { group.cancelAll() }
                guard let first = try await group.next(), let response = first else {
                    throw Problem(.serviceUnavailable, "\(request.method) \(request.uri.path) took longer than \(timeout) to answer; "
                                  + "try again later", headers: [.retryAfter: "1"])
                }
                return response
            }
        }
    }
}

/// The middleware chain's next step, which Hummingbird does not mark sendable: called once, from one task of the
/// group that ends before the middleware returns.
private struct UnsafeNext<Context: RequestContext>: @unchecked Sendable {
    let call: (Request, Context) async throws -> Response

    init(_ call: @escaping (Request, Context) async throws -> Response) {
        self.call = call
    }
}
