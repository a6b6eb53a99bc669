import Foundation
import StillpointCore

/// Sessions an app posts as JSON (what `POST /v1/practitioners/{id}/sessions` takes), checked with the import
/// limits and saved for one practitioner in one transaction: all of them or, when any is wrong, none.
///
/// The body is an array of at most ``ImportLimits/maxPostedSessions`` sessions:
///
/// ```json
/// [{"start": "2024-03-05T07:30:00+01:00", "duration": 1200, "kind": "yoga"},
///  {"start": "2024-03-06T07:30:00", "time_zone": "Europe/Berlin", "duration": 600, "kind": "meditation",
///   "source": "my_app", "key": "my-app-8841"}]
/// ```
///
/// `start` is an ISO 8601 instant, or a wall-clock time in `time_zone`, else in the practitioner's home time zone;
/// `duration` is in seconds; `source` is ``defaultSource`` when left out. A session is known by its `key` within the
/// practitioner's sessions (another practitioner's key is another session): posting it again changes it, or finds
/// it as it is. Without a key, the key is made from the source, start and end, as an import makes it.
///
/// ```swift
/// let outcome = try await PostedSessions.save(body, for: "alice", in: container)
/// outcome.inserted   // 2
/// ```
public enum PostedSessions {
    /// The source of a posted session that names none.
    public static let defaultSource = "api"

    /// The sessions of `body`, checked: every wrong one is found (the first ``PostedSessionsError/listedIssues`` are
    /// named), and a body too large or an array too long is refused before any session is read.
    ///
    /// - Parameters:
    ///   - homeZone: the practitioner's home time zone, for sessions that give none.
    ///   - now: the moment the sessions are checked against (a start may lie at most a day after it).
    /// - Throws: ``PostedSessionsError``.
    public static func records(from body: Data, homeZone: TimeZone?, now: Date = Date()) throws(PostedSessionsError) -> [SessionRecord] {
        guard body.count <= ImportLimits.maxPostedBytes else { throw .tooLarge(bytes: body.count, limit: ImportLimits.maxPostedBytes) }
        let list: PostedSessionList
        do {
            list = try JSONDecoder().decode(PostedSessionList.self, from: body)
        } catch let error as PostedSessionsError {
            throw error
        } catch DecodingError.typeMismatch {
            throw .malformed("the body is not a JSON array; post an array of sessions such as [{\"start\": \"2024-03-05T07:30:00Z\", \"duration\": 600, \"kind\": \"yoga\"}]")
        } catch {
            throw .malformed("the body is not JSON: \(Self.reason(error)); post an array of sessions")
        }
        var records: [SessionRecord] = []
        records.reserveCapacity(list.elements.count)
        var issues: [PostedSessionIssue] = []
        var wrong = 0
        var indexOfKey: [String: Int] = [:]
        for (index, fields) in list.elements.enumerated() {
            var result = fields.record(index: index, homeZone: homeZone, now: now)
            if case .success(let record) = result, let first = indexOfKey.updateValue(index, forKey: record.key) {
                // One transaction writes each key once: a second session of one key would silently replace the first.
                result = .failure(PostedSessionIssue(index: index, field: PostedSessionFields.Field.key.rawValue,
                                                     reason: "\(PostedSessionIssue.quoted(record.key)) is also the key of [\(first)]; "
                                                         + "a key names one session (without a key, one is made from source, start and end)"))
            }
            switch result {
            case .success(let record):
                records.append(record)
            case .failure(let issue):
                wrong += 1
                if issues.count < PostedSessionsError.listedIssues { issues.append(issue) }
            }
        }
        guard wrong == 0 else { throw .badSessions(count: wrong, of: list.elements.count, first: issues) }
        return records
    }

    /// Checks the sessions of `body` (``records(from:homeZone:now:)``, in the practitioner's home time zone) and
    /// saves them for the practitioner `practitioner` in one transaction.
    ///
    /// - Throws: ``PostedSessionsError`` when the practitioner is not in the store or the body is wrong (nothing is
    ///   saved); the store's errors (nothing is saved either).
    public static func save(_ body: Data, for practitioner: String, in container: PersistentContainer,
                            now: Date = Date()) async throws -> PostedSessionsOutcome {
        // Before the store is asked anything; records(from:) checks it again for callers that come to it directly.
        guard body.count <= ImportLimits.maxPostedBytes else {
            throw PostedSessionsError.tooLarge(bytes: body.count, limit: ImportLimits.maxPostedBytes)
        }
        guard let owner = try await Practitioners.find(practitioner, in: container) else {
            throw PostedSessionsError.noPractitioner(practitioner)
        }
        let records = try records(from: body, homeZone: owner.timeZone.flatMap(TimeZone.init(identifier:)), now: now)
        return try await save(records, practitioner: owner.rowID, in: container)
    }

    /// Saves checked `records` for the practitioner with row id `practitioner`, in one write transaction: one batch
    /// of an ``ImportOperation`` keyed by practitioner and key, so that a key met again updates its session or finds
    /// it unchanged.
    static func save(_ records: [SessionRecord], practitioner: Int64, in container: PersistentContainer) async throws -> PostedSessionsOutcome {
        let rows = records.enumerated().map { index, record in
            var values = record.attributeValues
            values[Session.practitioner.name] = .integer(practitioner)
            // A post carries no note: the note an import gave a session stays.
            values[Session.note.name] = nil
            return ImportRecord(values, position: index)
        }
        let operation = ImportOperation(entity: Session.entity, key: SessionImportSource.key, batchSize: max(1, rows.count), records: rows)
        ContextOperationQueue(container: container, name: "posted sessions").addOperation(operation)
        let summary: ImportSummary
        do {
            summary = try await operation.value
        } catch let error as ImportOperationError {
            // One batch: nothing was saved, and the store's own error says why.
            throw error.underlying
        }
        return PostedSessionsOutcome(inserted: summary.inserted, updated: summary.updated, unchanged: summary.unchanged, keys: records.map(\.key))
    }

    /// A decoding error as one phrase: where JSON's syntax broke, without Swift's type names.
    private static func reason(_ error: any Error) -> String {
        guard case DecodingError.dataCorrupted(let context) = error else { return "it cannot be read" }
        let detail = (context.underlyingError as? NSError)?.userInfo[NSDebugDescriptionErrorKey] as? String
        return (detail ?? context.debugDescription).trimmingCharacters(in: CharacterSet(charactersIn: "."))
    }
}

/// The posted array: its length checked before any element is decoded.
private struct PostedSessionList: Decodable {
    var elements: [PostedSessionFields] = []

    init(from decoder: any Decoder) throws {
        var array = try decoder.unkeyedContainer()
        let count = array.count ?? 0
        guard count <= ImportLimits.maxPostedSessions else {
            throw PostedSessionsError.tooMany(count: count, limit: ImportLimits.maxPostedSessions)
        }
        elements.reserveCapacity(count)
        while !array.isAtEnd { elements.append(try array.decode(PostedSessionFields.self)) }
    }
}
