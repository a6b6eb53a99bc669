import Foundation
import PracticeLog

/// The OpenAPI 3.1 document of the service, served at `/openapi.json`.
///
/// Every route of the service has an operation here. A route group that adds a route adds (or un-plans) its
/// operation in ``operations`` in the same change: `OpenAPIDocumentTests` fails while the routes served and the
/// operations documented differ.
///
/// ```swift
/// let json = OpenAPIDocument.json   // the served document's bytes
/// ```
enum OpenAPIDocument {
    typealias Operation = OpenAPIOperation

    /// Every operation, served or planned.
    static var operations: [Operation] { [
        Operation("get", "/healthz", "Whether the process is up", security: .none,
                  answers: ["200": .json("Status", "The process answers")]),
        Operation("get", "/readyz", "Whether the store answers", security: .none,
                  answers: ["200": .json("Status", "The store answers")]),
        Operation("get", "/openapi.json", "This document", security: .none,
                  answers: ["200": .media(["application/json"], "The OpenAPI 3.1 document of the service")]),
        Operation("get", "/v1/practitioners", "The practitioners, in id order, a page at a time", security: .administrator,
                  parameters: [Operation.query("limit", "How many on the page, 1 to 1000 (100 without it)", ["type": "integer", "minimum": 1, "maximum": 1000]),
                               Operation.query("after", "The `next` of the page before")],
                  answers: ["200": .json("PractitionerPage", "A page of practitioners")]),
        Operation("post", "/v1/practitioners", "Add a practitioner, and hand out their token (the only time it is shown)",
                  security: .administrator, requestBody: Operation.jsonBody("NewPractitioner"),
                  answers: ["201": .json("IssuedToken", "The practitioner was added"),
                            "409": .problem("A practitioner of that id exists already")]),
        Operation("post", "/v1/practitioners/{id}/token", "Replace a practitioner's token; the one before stops working",
                  security: .administrator, answers: ["201": .json("IssuedToken", "The new token")]),
        Operation("delete", "/v1/practitioners/{id}", "Remove a practitioner with their sessions and import runs, in one transaction",
                  security: .administrator, answers: ["200": .json("Removal", "What was removed")]),
        Operation("get", "/v1/practitioners/{id}/report", "The practitioner's report, the bytes `stillpoint report` prints",
                  security: .reader,
                  parameters: [Operation.query("format", "json (without it), html, markdown, csv or text",
                                               ["type": "string", "enum": ["json", "html", "markdown", "csv", "text"]]),
                               Operation.query("config", "The NAME of a NAME.yaml manifest in the server's config folder"),
                               Operation.query("as_of", "The report as of this ISO 8601 instant", ["type": "string", "format": "date-time"])],
                  answers: ["200": .media(["application/json", "text/html", "text/markdown", "text/csv", "text/plain"], "The report"),
                            "304": .empty("The report has not changed since the ETag of If-None-Match")]),
        // The routes the issue asks for that later changes add: drop `planned` with the route.
        Operation("get", "/v1/practitioners/{id}/report/events", "The report now, then again after each change that alters it",
                  security: .reader, answers: ["200": .media(["text/event-stream"], "Server-sent events, one report each, with ids for Last-Event-ID"),
                                                     "503": .problem("The server holds its most event streams; retry after Retry-After")]),
        Operation("get", "/v1/practitioners/{id}", "The HTML report as a page that updates itself from the event stream",
                  security: .reader, answers: ["200": .media(["text/html"], "The page, under a Content-Security-Policy with a nonce of its own"),
                                               "308": .empty("The id spelled otherwise than the cookie's path; Location spells it so")]),
        Operation("post", "/v1/practitioners/{id}/cookie", "Trade the practitioner's token for the cookie a browser opens the page with",
                  security: .none, requestBody: Operation.jsonBody("PageCookieRequest"),
                  answers: ["204": .empty("The cookie is in Set-Cookie: HttpOnly, SameSite=Strict, for the practitioner's paths"),
                            "401": .problem("The token is no one's"),
                            "403": .problem("The administrator's token, which is never put in a cookie"),
                            "415": .problem("The body is not sent as application/json")]),
        Operation("post", "/v1/practitioners/{id}/sessions", "Add sessions, checked with the import limits, idempotent by key, in one transaction",
                  security: .practitioner, requestBody: Operation.jsonBody("NewSessions"),
                  answers: ["201": .json("SessionsSaved", "At least one session was new"),
                            "200": .json("SessionsSaved", "Every session was there already (changed or unchanged)"),
                            "422": .problem("Sessions are wrong, each named by index and field; nothing was saved")]),
        Operation("get", "/v1/practitioners/{id}/sessions", "A page of the practitioner's sessions, newest first",
                  security: .practitioner,
                  parameters: [Operation.query("where", "A predicate as `stillpoint sessions --where` takes it"),
                               Operation.query("limit", "How many on the page, 1 to 500 (50 without it)", ["type": "integer", "minimum": 1, "maximum": 500]),
                               Operation.query("before", "The `next` of the page before")],
                  answers: ["200": .json("SessionPage", "A page of sessions")]),
        Operation("post", "/v1/practitioners/{id}/imports", "Import an export file, streamed as the body, as `stillpoint import` does",
                  security: .practitioner,
                  parameters: [Operation.query("format", "The export's format (required)", ["type": "string", "enum": SessionImporters.builtIn.map { $0.id }]),
                               Operation.query("name", "The file's name, for the run's record (`upload` without it)", ["type": "string", "maxLength": 200])],
                  requestBody: ["required": true, "content": ["application/octet-stream": ["schema": ["type": "string", "contentMediaType": "application/octet-stream"]]]],
                  answers: ["201": .json("Imported", "What the import did"),
                            "422": .problem("The body is not an export of that format; nothing was imported")]),
        Operation("get", "/v1/practitioners/{id}/imports", "The practitioner's import runs", security: .practitioner,
                  answers: ["200": .json("ImportRuns", "The import runs")]),
        Operation("delete", "/v1/practitioners/{id}/imports/{run}", "Take an import out, with the sessions no other run read", security: .practitioner,
                  answers: ["200": .json("ImportRemoved", "The run removed")]),
        Operation("get", "/metrics", "Prometheus metrics", security: .none,
                  answers: ["200": .media(["text/plain"], "Prometheus text exposition")]),
    ] }

    /// The schemas the operations name.
    static var schemas: [String: Any] { [
        "Problem": object(["type": string, "title": string, "status": ["type": "integer"], "detail": string, "instance": string],
                          required: ["type", "title", "status", "detail", "instance"]),
        "Status": object(["status": string], required: ["status"]),
        "NewPractitioner": object(["id": ["type": "string", "minLength": 1, "maxLength": 200], "name": ["type": "string", "maxLength": 200],
                                   "time_zone": ["type": "string", "description": "An IANA zone, such as Europe/Berlin"]], required: ["id"]),
        "PageCookieRequest": object(["token": string], required: ["token"]),
        "IssuedToken": object(["id": string, "token": string], required: ["id", "token"]),
        "Removal": object(["id": string, "sessions": ["type": "integer"], "import_runs": ["type": "integer"]],
                          required: ["id", "sessions", "import_runs"]),
        "PractitionerPage": object([
            "practitioners": ["type": "array", "items": object(["id": string, "name": string, "time_zone": ["type": ["string", "null"]],
                                                                 "sessions": ["type": "integer"]], required: ["id", "name", "time_zone", "sessions"])],
            "next": ["type": ["string", "null"]],
        ], required: ["practitioners", "next"]),
        "NewSessions": ["type": "array", "items": object(["start": ["type": "string", "format": "date-time"], "duration": ["type": "number"],
                                                          "kind": string, "source": string, "time_zone": string, "key": string],
                                                         required: ["start", "duration", "kind"])],
        "SessionsSaved": object(["inserted": integer, "updated": integer, "unchanged": integer, "keys": ["type": "array", "items": string]],
                               required: ["inserted", "updated", "unchanged", "keys"]),
        "SessionPage": object([
            "sessions": ["type": "array", "items": object(["id": integer, "start": ["type": "string", "format": "date-time"], "duration": ["type": "number"],
                                                          "kind": string, "source": string, "time_zone": nullableString, "note": nullableString, "key": string],
                                                         required: ["id", "start", "duration", "kind", "source", "time_zone", "note", "key"])],
            "next": nullableString,
        ], required: ["sessions", "next"]),
        "Imported": object(["run": integer, "inserted": integer, "updated": integer, "unchanged": integer, "skipped": integer,
                            "complete": ["type": "boolean"], "issues": ["type": "array", "items": string], "stopped_at": nullableString,
                            "replaced_runs": ["type": "array", "items": integer]],
                           required: ["run", "inserted", "updated", "unchanged", "skipped", "complete", "issues", "stopped_at", "replaced_runs"]),
        "ImportRun": object(["id": integer, "file": string, "format": string, "started_at": ["type": "string", "format": "date-time"],
                             "finished_at": ["type": ["string", "null"], "format": "date-time"],
                             "state": ["type": "string", "enum": ["complete", "stopped_part_way", "killed", "running"]],
                             "inserted": integer, "updated": integer, "unchanged": integer, "skipped": integer, "sessions": integer],
                            required: ["id", "file", "format", "started_at", "finished_at", "state", "inserted", "updated", "unchanged", "skipped", "sessions"]),
        "ImportRuns": object(["imports": ["type": "array", "items": ["$ref": "#/components/schemas/ImportRun"]]], required: ["imports"]),
        "ImportRemoved": object(["run": integer, "sessions_removed": integer], required: ["run", "sessions_removed"]),
    ] }

    private static var string: [String: Any] { ["type": "string"] }
    private static var nullableString: [String: Any] { ["type": ["string", "null"]] }
    private static var integer: [String: Any] { ["type": "integer"] }

    private static func object(_ properties: [String: Any], required: [String]) -> [String: Any] {
        ["type": "object", "properties": properties, "required": required]
    }

    /// The document of the operations served (planned ones left out), as a JSON object.
    static func document(serving operations: [Operation]) -> [String: Any] {
        var paths: [String: [String: Any]] = [:]
        for operation in operations {
            paths[operation.path, default: [:]][operation.method] = operation.document
        }
        return [
            "openapi": "3.1.0",
            "info": ["title": "stillpoint-server", "version": "1",
                     "description": "Every practitioner's report over HTTP (docs/serving.md). Errors are RFC 9457 problems."],
            "paths": paths,
            "components": [
                "schemas": schemas,
                "securitySchemes": [
                    "administrator": ["type": "http", "scheme": "bearer", "description": "The administrator's token"],
                    "practitioner": ["type": "http", "scheme": "bearer", "description": "A practitioner's own token"],
                    "pageCookie": ["type": "apiKey", "in": "cookie", "name": PageCookie.name,
                                   "description": "A practitioner's own token in the cookie POST /v1/practitioners/{id}/cookie sets (GET routes of the page only)"],
                ],
            ],
        ]
    }

    /// The served document's bytes, keys sorted.
    static let json: Data = {
        let served = operations.filter { !$0.planned }
        // Dictionaries of strings, numbers, booleans and arrays always serialise.
        return (try? JSONSerialization.data(withJSONObject: document(serving: served), options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
    }()
}
