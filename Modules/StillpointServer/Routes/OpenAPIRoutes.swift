import Foundation
import Hummingbird

/// `GET /openapi.json`: the OpenAPI 3.1 document of the service (``OpenAPIDocument``).
enum OpenAPIRoutes {
    static func add(to router: Router<BasicRequestContext>, _ state: ServerState) {
        state.routes.add(.get, "/openapi.json", on: router) { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json"],
                     body: ResponseBody(byteBuffer: ByteBuffer(bytes: OpenAPIDocument.json)))
        }
    }
}
