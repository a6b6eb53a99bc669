import Crypto
import Foundation
import Hummingbird
import PracticeLog
import StillpointCore
import StillpointManifest
import StillpointReport
import StillpointStatistics

/// `GET /v1/practitioners/{id}/report`: the bytes `stillpoint report --practitioner ID --format F` prints, made
/// by the same runner and renderers, with an `ETag` so that an unchanged report costs a 304.
enum ReportRoutes {
    /// The format without `?format=`: the API speaks JSON.
    static let defaultFormat = ReportFormat.json

    static func add(to router: Router<BasicRequestContext>, _ state: ServerState) {
        let serialization = KeyedSerialization()
        let manifests = ManifestLibrary(directory: state.configuration.configDirectory)
        state.routes.add(.get, "/v1/practitioners/:id/report", on: router) { request, context in
            let id = try PathParameter.practitionerID(request, context)
            try await state.access.practitioner(id, request)
            let query = request.uri.queryParameters
            let format = try format(query["format"].map(String.init))
            var manifest = try manifests.manifest(named: query["config"].map(String.init))
            if let text = query["as_of"] {
                guard let instant = ISOInstant.parse(String(text)) else {
                    throw Problem(.badRequest, "the query parameter as_of '\(text.prefix(100))' is not an instant that exists; write \(ISOInstant.expectedForm)")
                }
                manifest.environment.asOf = instant
            }
            let entries = try manifest.prepare(modules: ManifestLibrary.modules)
            let environment = manifest.environment
            let report = try await serialization.run(id) {
                try await makeReport(of: id, entries, environment: environment, state)
            }
            guard let renderer = ReportRenderers.builtIn.renderer(for: format) else {
                throw Problem(.badRequest, "no renderer writes the format '\(format)'")
            }
            let bytes = Data(WatchScreen.terminated(renderer.render(report)).utf8)
            return answer(bytes, format: format, request)
        }
    }

    /// The report of `id` as the tool makes it: the practitioner's statistics, then the demo notice of their sessions.
    private static func makeReport(of id: String, _ entries: [PreparedEntry], environment: ReportEnvironment,
                                   _ state: ServerState) async throws -> Report {
        guard let rowID = try await Practitioners.existingRowID(of: id, in: state.container),
              var report = try await state.reports.report(for: id, entries, environment: environment) else {
            throw Problem.noPractitioner(id)
        }
        let scope = try FetchScope(Practitioner.self, try FetchPredicate("_id == %@", rowID))
        report.notice = try await Report.demoNotice(for: state.container, asOf: report.asOf, scope: scope)
        return report
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

    /// The report, or a 304 when the client's `If-None-Match` names its ETag.
    static func answer(_ bytes: Data, format: ReportFormat, _ request: Request) -> Response {
        let tag = "\"" + SHA256.hash(data: bytes).prefix(16).map { String(format: "%02x", $0) }.joined() + "\""
        // Every request asks again: the report changes whenever a session is saved.
        var headers: HTTPFields = [.eTag: tag, .cacheControl: "no-cache"]
        if let wanted = request.headers[.ifNoneMatch], matches(wanted, tag) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = ReportMediaType.of(format)
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// Whether an `If-None-Match` list holds `tag` (compared weakly, as RFC 9110 says for this header) or `*`.
    static func matches(_ header: String, _ tag: String) -> Bool {
        header.split(separator: ",").contains { candidate in
            let candidate = candidate.trimmingCharacters(in: .whitespaces)
            return candidate == "*" || candidate == tag || candidate == "W/" + tag
        }
    }
}
