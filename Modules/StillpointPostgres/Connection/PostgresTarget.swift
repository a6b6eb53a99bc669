import CLibPQ

/// Where a connection URI points, for messages: host, port, database and user, never the password.
///
/// ```swift
/// PostgresTarget(uri: "postgresql://app:secret@db.example:5433/practice").description
/// // "db.example:5433 (database practice, user app)"
/// ```
package struct PostgresTarget: Sendable, Equatable, CustomStringConvertible {
    package var host: String?
    package var port: String?
    package var database: String?
    package var user: String?

    /// Why libpq cannot read `uri` as a URI or `key=value` pairs, or `nil` when it can.
    package static func parseFailure(of uri: String) -> String? {
        var failure: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(uri, &failure) else {
            defer { PQfreemem(failure) }
            return failure.map { String(cString: $0).trimmingCharacters(in: .whitespacesAndNewlines) } ?? "it cannot be parsed"
        }
        PQconninfoFree(options)
        return nil
    }

    /// The parts libpq reads from `uri` (a URI or `key=value` pairs); empty where it cannot parse it.
    package init(uri: String) {
        var failure: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(uri, &failure) else {
            PQfreemem(failure)
            return
        }
        defer { PQconninfoFree(options) }
        var option = options
        while let keyword = option.pointee.keyword {
            let value = option.pointee.val.map { String(cString: $0) }
            switch String(cString: keyword) {
            case "host": host = value
            case "port": port = value
            case "dbname": database = value
            case "user": user = value
            default: break
            }
            option += 1
        }
    }

    package var description: String {
        // libpq's defaults: the environment's PGHOST, else the local socket; PGPORT, else 5432.
        let place = (host ?? "the local socket") + (port.map { ":\($0)" } ?? "")
        let details = [database.map { "database \($0)" }, user.map { "user \($0)" }].compactMap { $0 }
        return place + (details.isEmpty ? "" : " (" + details.joined(separator: ", ") + ")")
    }
}
