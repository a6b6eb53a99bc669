import Foundation
import Hummingbird

/// A path parameter, percent-decoded: `/v1/practitioners/ali%20ce/report` names `ali ce`.
enum PathParameter {
    static func practitionerID(_ request: Request, _ context: some RequestContext) throws -> String {
        let raw = try context.parameters.require("id")
        guard let id = raw.removingPercentEncoding, !id.isEmpty else {
            throw Problem(.badRequest, "the practitioner id in \(request.uri.path) is not valid percent-encoding; encode it as RFC 3986 says")
        }
        return id
    }
}
