import Foundation

/// One operation of the OpenAPI document: a method on a path, who may call it, its parameters, body and answers.
///
/// `planned` marks an operation the issue asks for that this build does not serve yet: it stays out of the served
/// document, and a test fails when a route is registered for it while it is still marked (drop the mark with the
/// route), or when a route is served that the document lacks.
///
/// ```swift
/// OpenAPIOperation(.get, "/healthz", "The process is up", security: .none, responses: ["200": .json("Status")])
/// ```
struct OpenAPIOperation {
    /// Who may call an operation.
    enum Security {
        case none, administrator, practitioner
        /// The practitioner or the administrator by bearer token, or the practitioner by ``PageCookie`` (``AccessControl/reader(_:_:)``).
        case reader
    }

    /// An answer: its description and the schema of its JSON, or a media type of its own.
    struct Answer {
        let description: String
        let content: [String: Any]?

        static func json(_ schema: String, _ description: String) -> Answer {
            Answer(description: description, content: ["application/json": ["schema": ["$ref": "#/components/schemas/\(schema)"]]])
        }

        /// A problem (RFC 9457), in the media type the server sends it as, `application/problem+json`.
        static func problem(_ description: String) -> Answer {
            Answer(description: description, content: [Problem.mediaType: ["schema": ["$ref": "#/components/schemas/Problem"]]])
        }

        /// Bodies of the media `types`, each with the schema of what it holds (``schema(of:)``).
        static func media(_ types: [String], _ description: String) -> Answer {
            Answer(description: description, content: Dictionary(uniqueKeysWithValues: types.map { ($0, ["schema": schema(of: $0)] as [String: Any]) }))
        }

        /// A JSON body is an object; a server-sent event has an `id` and `data` (text); other media are text.
        static func schema(of type: String) -> [String: Any] {
            switch type {
            case "application/json": ["type": "object"]
            case "text/event-stream": ["type": "object", "properties": ["id": ["type": "string"], "data": ["type": "string"], "event": ["type": "string"]],
                                       "required": ["id", "data"]]
            default: ["type": "string"]
            }
        }

        static func empty(_ description: String) -> Answer {
            Answer(description: description, content: nil)
        }
    }

    let method: String
    let path: String
    let summary: String
    let security: Security
    var parameters: [[String: Any]] = []
    var requestBody: [String: Any]?
    let answers: [String: Answer]
    var planned = false

    /// The operation as the document writes it under its path and method, with the problem answers every route may give.
    var document: [String: Any] {
        var responses: [String: Any] = [:]
        for (status, answer) in answers {
            var written: [String: Any] = ["description": answer.description]
            if let content = answer.content { written["content"] = content }
            responses[status] = written
        }
        let problem: [String: Any] = ["description": "A problem (RFC 9457): what was wrong, where, and what to do",
                                      "content": [Problem.mediaType: ["schema": ["$ref": "#/components/schemas/Problem"]]]]
        var problems = ["400", "404", "405", "413", "500", "503"]
        if security != .none { problems += ["401"] }
        if security == .administrator { problems += ["403"] }
        for status in problems where responses[status] == nil { responses[status] = problem }
        var operation: [String: Any] = ["operationId": operationID, "summary": summary, "responses": responses]
        let pathParameters = path.split(separator: "/").filter { $0.hasPrefix("{") }.map { segment -> [String: Any] in
            ["name": String(segment.dropFirst().dropLast()), "in": "path", "required": true, "schema": ["type": "string"]]
        }
        if !(pathParameters + parameters).isEmpty { operation["parameters"] = pathParameters + parameters }
        if let requestBody { operation["requestBody"] = requestBody }
        switch security {
        case .none: operation["security"] = [[String: Any]]()
        case .administrator: operation["security"] = [["administrator": [String]()]]
        case .practitioner: operation["security"] = [["practitioner": [String]()], ["administrator": [String]()]]
        case .reader: operation["security"] = [["practitioner": [String]()], ["administrator": [String]()], ["pageCookie": [String]()]]
        }
        return operation
    }

    init(_ method: String, _ path: String, _ summary: String, security: Security, parameters: [[String: Any]] = [],
         requestBody: [String: Any]? = nil, answers: [String: Answer], planned: Bool = false) {
        self.method = method
        self.path = path
        self.summary = summary
        self.security = security
        self.parameters = parameters
        self.requestBody = requestBody
        self.answers = answers
        self.planned = planned
    }

    /// The method and the path's words in camel case: `getV1PractitionersIdReport`.
    var operationID: String {
        let words = path.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map { word in word.prefix(1).uppercased() + word.dropFirst() }
        return method + words.joined()
    }

    /// A query parameter.
    static func query(_ name: String, _ description: String, _ schema: [String: Any] = ["type": "string"]) -> [String: Any] {
        ["name": name, "in": "query", "required": false, "description": description, "schema": schema]
    }

    /// A JSON request body of the schema `name`.
    static func jsonBody(_ name: String) -> [String: Any] {
        ["required": true, "content": ["application/json": ["schema": ["$ref": "#/components/schemas/\(name)"]]]]
    }
}
