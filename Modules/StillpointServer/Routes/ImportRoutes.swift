import Foundation
import Hummingbird
import PracticeLog
import StillpointCore

/// `POST /v1/practitioners/{id}/imports?format=F`, `GET .../imports` and `DELETE .../imports/{run}`: an export file
/// uploaded as the body, read as it arrives into a temporary file of at most ``ServerLimits/maximumImportBytes``
/// (``SessionImport/open(streaming:limit:)``) and imported as `stillpoint import` imports it, a run recorded for the
/// practitioner; their runs listed, and one taken out with the sessions no other run read (docs/sessions-api.md).
///
/// ```sh
/// curl -H "Authorization: Bearer $TOKEN" --data-binary @"Insight Timer Sessions.csv" \
///      "http://127.0.0.1:8080/v1/practitioners/alice/imports?format=insight-timer"
/// ```
enum ImportRoutes {
    static func add(to router: Router<BasicRequestContext>, _ state: ServerState) {
        state.routes.add(.post, "/v1/practitioners/:id/imports", on: router) { request, context in
            let id = try PathParameter.practitionerID(request, context)
            try await state.access.practitioner(id, request)
            let query = request.uri.queryParameters
            let format = try format(query["format"].map(String.init))
            let name = query["name"].map(String.init) ?? "upload"
            if let problem = Practitioners.problem(withName: name) {
                throw Problem(.badRequest, "the query parameter name \(problem); name the file in at most \(Practitioners.maximumIDLength) characters")
            }
            let limit = state.configuration.limits.maximumImportBytes
            if let length = request.headers[.contentLength].flatMap(Int.init), length > limit {
                throw tooLarge(limit, request)
            }
            guard let owner = try await Practitioners.find(id, in: state.container) else { throw Problem.noPractitioner(id) }
            // Wall-clock times without a zone are in the practitioner's home zone.
            let zone = owner.timeZone.flatMap(TimeZone.init(identifier:))
            guard let importer = SessionImporters.importer(withID: format, timeZone: zone) else { throw unknownFormat(format) }
            let upload = SessionImport(file: name, importer: importer, options: zone.map { "--time-zone \($0.identifier)" } ?? "")
            let opened: OpenedSessionImport
            do {
                opened = try await upload.open(streaming: request.body.map { $0.readableBytesView }, limit: limit)
            } catch SessionImportError.bodyTooLarge {
                throw tooLarge(limit, request)
            } catch var error as ImportFormatError {
                // The importers name the file they read, here the body's temporary copy: the client knows it as the body.
                error.path = Self.bodyName
                throw Problem(.unprocessableContent, error.localizedDescription)
            } catch var error as ImportReadError {
                error.path = Self.bodyName
                throw Problem(.unprocessableContent, error.localizedDescription)
            } catch var error as ImportDataError {
                error.path = Self.bodyName
                throw Problem(.unprocessableContent, error.localizedDescription)
            }
            let result: SessionImportResult
            do {
                result = try await opened.run(into: state.container, practitioner: id)
            } catch {
                throw Problem.storeUnavailable(error, request) ?? error
            }
            return try JSONAnswer.response(ImportedBody(result), status: .created)
        }
        state.routes.add(.get, "/v1/practitioners/:id/imports", on: router) { request, context in
            let id = try PathParameter.practitionerID(request, context)
            try await state.access.practitioner(id, request)
            guard let owner = try await Practitioners.find(id, in: state.container) else { throw Problem.noPractitioner(id) }
            let runs = try await ImportRuns.list(in: state.container, practitioner: owner.rowID)
            return try JSONAnswer.response(RunsBody(imports: runs.map(RunBody.init)))
        }
        state.routes.add(.delete, "/v1/practitioners/:id/imports/:run", on: router) { request, context in
            let id = try PathParameter.practitionerID(request, context)
            try await state.access.practitioner(id, request)
            let text = try context.parameters.require("run")
            // A run of another practitioner is not found, exactly as a run that does not exist.
            let missing = Problem(.notFound, "there is no import run '\(text.prefix(40))' of practitioner '\(id)'; GET /v1/practitioners/\(id)/imports lists them")
            guard let run = Int64(text), let owner = try await Practitioners.find(id, in: state.container) else { throw missing }
            let removed: Int?
            do {
                removed = try await ImportRuns.remove(run, from: state.container, practitioner: owner.rowID)
            } catch {
                throw Problem.storeUnavailable(error, request) ?? error
            }
            guard let removed else { throw missing }
            return try JSONAnswer.response(RemovedBody(run: run, sessionsRemoved: removed))
        }
    }

    /// What a message about the uploaded file calls it.
    static let bodyName = "the body"

    /// `?format=`, required, or a 400 naming the formats.
    static func format(_ text: String?) throws -> String {
        guard let text, SessionImporters.type(withID: text) != nil else { throw unknownFormat(text) }
        return text
    }

    private static func unknownFormat(_ text: String?) -> Problem {
        let given = text.map { " '\($0.prefix(40))' is not an import format" } ?? " is missing"
        let formats = SessionImporters.builtIn.map { $0.id }.joined(separator: ", ")
        return Problem(.badRequest, "the query parameter format\(given); name the export's format: \(formats)")
    }

    private static func tooLarge(_ limit: Int, _ request: Request) -> Problem {
        Problem(.contentTooLarge, "the body of \(request.method) \(request.uri.path) is more than the \(limit) bytes an import may have; "
                + "nothing was imported: split the export, or import it with `stillpoint import`")
    }

    /// What an import did.
    struct ImportedBody: Encodable {
        let run: Int64
        let inserted: Int
        let updated: Int
        let unchanged: Int
        let skipped: Int
        /// Whether the whole file was read.
        let complete: Bool
        /// The first rows skipped, `line N: reason`.
        let issues: [String]
        /// Where the file broke off, if it did.
        @NullWhenAbsent var stoppedAt: String?
        /// The earlier runs of the same file this one replaced.
        let replacedRuns: [Int64]

        init(_ result: SessionImportResult) {
            run = result.run
            inserted = result.summary.inserted
            updated = result.summary.updated
            unchanged = result.summary.unchanged
            skipped = result.summary.skipped
            complete = result.isComplete
            issues = result.summary.issues.prefix(SessionImportError.listedIssues).map(\.description)
            stoppedAt = result.stop.map { stop in
                var named = stop
                named.path = ImportRoutes.bodyName
                return named.localizedDescription
            }
            replacedRuns = result.replacedRuns.map(\.id)
        }

        enum CodingKeys: String, CodingKey {
            case run, inserted, updated, unchanged, skipped, complete, issues, stoppedAt = "stopped_at", replacedRuns = "replaced_runs"
        }
    }

    struct RunsBody: Encodable {
        let imports: [RunBody]
    }

    /// One run as `stillpoint imports` lists it.
    struct RunBody: Encodable {
        let id: Int64
        let file: String
        let format: String
        let startedAt: String
        @NullWhenAbsent var finishedAt: String?
        let state: String
        let inserted: Int
        let updated: Int
        let unchanged: Int
        let skipped: Int
        /// The sessions linked to the run now.
        let sessions: Int

        init(_ run: ImportRuns.Listing) {
            id = run.id
            file = run.file
            format = run.format
            startedAt = InstantText.string(run.startedAt)
            finishedAt = run.finishedAt.map(InstantText.string)
            state = switch run.state {
            case .complete: "complete"
            case .stoppedPartWay: "stopped_part_way"
            case .killed: "killed"
            case .running: "running"
            }
            inserted = run.inserted
            updated = run.updated
            unchanged = run.unchanged
            skipped = run.skipped
            sessions = run.sessions
        }

        enum CodingKeys: String, CodingKey {
            case id, file, format, startedAt = "started_at", finishedAt = "finished_at", state, inserted, updated, unchanged, skipped, sessions
        }
    }

    struct RemovedBody: Encodable {
        let run: Int64
        let sessionsRemoved: Int

        enum CodingKeys: String, CodingKey {
            case run, sessionsRemoved = "sessions_removed"
        }
    }
}
