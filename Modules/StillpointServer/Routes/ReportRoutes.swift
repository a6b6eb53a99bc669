import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import PracticeLog
import StillpointCore
import StillpointManifest
import StillpointReport
import StillpointStatistics

/// `GET /v1/practitioners/{id}/report`: the bytes `stillpoint report --practitioner ID --format F` prints, made
/// by the same runner and renderers from the server's ``LiveReports``, with an `ETag` from the report's generation
/// so that an unchanged report costs a 304, and `Stillpoint-Stale: true` while it is served stale.
enum ReportRoutes {
    /// The format without `?format=`: the API speaks JSON.
    static let defaultFormat = ReportFormat.json
    /// The header that marks a report served from memory while the store cannot be reached.
    static let staleHeader = HTTPField.Name("Stillpoint-Stale")!  // swiftlint:disable:this force_unwrapping: a constant, valid header name

    static func add(to router: Router<BasicRequestContext>, _ state: ServerState) {
        let manifests = state.manifests
        state.routes.add(.get, "/v1/practitioners/:id/report", on: router) { request, context in
            let id = try PathParameter.practitionerID(request, context)
            try await state.access.reader(id, request)
            let query = request.uri.queryParameters
            let format = try format(query["format"].map(String.init))
            let configName = query["config"].map(String.init)
            let asOf: Date? = try query["as_of"].map { text -> Date in
                guard let instant = ISOInstant.parse(String(text)) else {
                    throw Problem(.badRequest, "the query parameter as_of '\(text.prefix(100))' is not an instant that exists; write \(ISOInstant.expectedForm)")
                }
                return instant
            }
            let live: LiveReport?
            if configName == nil, asOf == nil {
                // The report held: its generation and format name its bytes, so the ETag needs no hashing.
                live = try await state.live.report(for: id, format: format)
            } else {
                var manifest = try manifests.manifest(named: configName)
                if let asOf { manifest.environment.asOf = asOf }
                live = try await state.live.report(for: id, using: manifest, format: format)
            }
            guard let live else { throw Problem.noPractitioner(id) }
            return answer(live, hashed: configName != nil || asOf != nil, request)
        }
    }

    /// `?format=`, or a 400 naming the formats.
    static func format(_ text: String?) throws -> ReportFormat {
        guard let text else { return defaultFormat }
        let formats = ReportRenderers.builtIn.formats
        guard let format = ReportFormat(argument: text, among: formats) else {
            throw Problem(.badRequest, "the query parameter format '\(text.prefix(100))' is not a report format; use one of: \(ReportFormat.argumentList(formats))")
        }
        return format
    }

    /// The report as served, or a 304 when the client's `If-None-Match` names its ETag: the generation, the format
    /// and whether it is stale; with `hashed` (a named manifest, whose file may change, or a pinned instant) also a
    /// digest of the bytes.
    static func answer(_ live: LiveReport, hashed: Bool, _ request: Request) -> Response {
        let bytes = body(of: live)
        var tag = "\(live.generation)-\(live.format.name)" + (live.isStale ? "-stale" : "")
        if hashed { tag += "-" + SHA256.hash(data: Array(bytes.readableBytesView)).prefix(8).map { String(format: "%02x", $0) }.joined() }
        tag = "\"" + tag + "\""
        // Every request asks again: the report changes whenever a session is saved.
        var headers: HTTPFields = [.eTag: tag, .cacheControl: "no-cache"]
        if live.isStale { headers[staleHeader] = "true" }
        if let wanted = request.headers[.ifNoneMatch], matches(wanted, tag) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = ReportMediaType.of(live.format)
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: bytes))
    }

    /// The served text ending in a line feed (as the tool prints it), copied once into the buffer sent: the hot
    /// path's only copy of a report held in memory.
    static func body(of live: LiveReport) -> ByteBuffer {
        let text = live.servedBody
        var buffer = ByteBuffer()
        buffer.reserveCapacity(text.utf8.count + 1)
        buffer.writeString(text)
        if !text.hasSuffix("\n") { buffer.writeInteger(UInt8(ascii: "\n")) }
        return buffer
    }

    /// Whether an `If-None-Match` list holds `tag` (compared weakly, as RFC 9110 says for this header) or `*`.
    static func matches(_ header: String, _ tag: String) -> Bool {
        header.split(separator: ",").contains { candidate in
            let candidate = candidate.trimmingCharacters(in: .whitespaces)
            return candidate == "*" || candidate == tag || candidate == "W/" + tag
        }
    }
}
