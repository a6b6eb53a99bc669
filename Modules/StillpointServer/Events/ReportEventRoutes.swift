import Foundation
import HTTPTypes
import Hummingbird
import StillpointReport

/// `GET /v1/practitioners/{id}/report/events`: a `text/event-stream` of the practitioner's JSON report, now and then
/// after each change that alters it (from this process or any other over the store), one event each with the
/// report's generation as its `id:`, so that a client reconnecting with `Last-Event-ID` gets only what is newer.
///
/// The stream ends when the practitioner is removed or the server shuts down. At most
/// ``ServerLimits/maximumEventStreams`` are open at once; beyond that a request answers 503 with `Retry-After`.
enum ReportEventRoutes {
    static let lastEventID = HTTPField.Name("Last-Event-ID")!  // swiftlint:disable:this force_unwrapping: a constant, valid header name

    static func add(to router: Router<BasicRequestContext>, _ state: ServerState) {
        let slots = EventStreamSlots(limit: state.configuration.limits.maximumEventStreams)
        state.routes.add(.get, "/v1/practitioners/:id/report/events", on: router) { request, context in
            let id = try PathParameter.practitionerID(request, context)
            try await state.access.reader(id, request)
            let after = try resumePoint(request)
            guard slots.take() else {
                throw Problem(.serviceUnavailable, "this server has \(slots.limit) report event streams open already, its most; "
                              + "reconnect after Retry-After seconds", headers: [.retryAfter: "5"])
            }
            let updates: AsyncStream<LiveReport>?
            do {
                updates = try await state.live.updates(of: id, after: after)
            } catch {
                slots.give()
                throw error
            }
            guard let updates else {
                slots.give()
                throw Problem.noPractitioner(id)
            }
            let body = ResponseBody { writer in
                defer { slots.give() }
                for await update in updates {
                    try await writer.write(ByteBuffer(string: update.serverSentEvent))
                }
                try await writer.finish(nil)
            }
            return Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"], body: body)
        }
    }

    /// The generation in `Last-Event-ID`, or `nil` without one; a 400 for one that is not a generation.
    static func resumePoint(_ request: Request) throws -> Int64? {
        guard let text = request.headers[lastEventID] else { return nil }
        guard let generation = Int64(text.trimmingCharacters(in: .whitespaces)), generation >= 0 else {
            throw Problem(.badRequest, "the header Last-Event-ID '\(text.prefix(100))' is not an event id of this stream; "
                          + "send the id: of the last event received, a whole number, or leave the header out")
        }
        return generation
    }
}
