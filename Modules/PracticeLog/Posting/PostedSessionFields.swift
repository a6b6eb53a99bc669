import Foundation

/// One element of a posted array as JSON gave it, each field of the right JSON type, or the first field that is not;
/// ``record(index:homeZone:now:)`` then checks the values.
///
/// Decoding one never fails, so that the array's decoding goes on to the next element and every wrong one is found.
struct PostedSessionFields: Decodable {
    /// The fields of a posted session, by their JSON names.
    enum Field: String, CaseIterable {
        case start, duration, kind, source, timeZone = "time_zone", key
    }

    private struct Name: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    var start: String?
    var duration: Double?
    var kind: String?
    var source: String?
    var timeZone: String?
    var key: String?
    /// The first field of the wrong JSON type, or a field a session does not have.
    var problem: (field: String, reason: String)?

    init(from decoder: any Decoder) {
        let object: KeyedDecodingContainer<Name>
        do {
            object = try decoder.container(keyedBy: Name.self)
        } catch {
            problem = ("", "is not a JSON object; a session is {\"start\": ..., \"duration\": ..., \"kind\": ...}")
            return
        }
        if let unknown = object.allKeys.first(where: { Field(rawValue: $0.stringValue) == nil }) {
            let fields = Field.allCases.map(\.rawValue).joined(separator: ", ")
            problem = (unknown.stringValue, "is not a field of a session; its fields are \(fields)")
            return
        }
        func value<T: Decodable>(_ field: Field, _ type: T.Type, expected: String) -> T? {
            guard problem == nil else { return nil }
            do {
                return try object.decodeIfPresent(type, forKey: Name(stringValue: field.rawValue))
            } catch {
                problem = (field.rawValue, "is not \(expected)")
                return nil
            }
        }
        start = value(.start, String.self, expected: "a string such as \"2024-03-05T07:30:00+01:00\"")
        duration = value(.duration, Double.self, expected: "a number of seconds")
        kind = value(.kind, String.self, expected: "a string such as \"yoga\"")
        source = value(.source, String.self, expected: "a string")
        timeZone = value(.timeZone, String.self, expected: "a string such as \"Europe/Berlin\"")
        key = value(.key, String.self, expected: "a string")
    }

    /// The session as a record, or what is wrong with it: the first field at fault, in the order of ``Field``.
    ///
    /// A start with an offset (`Z`, `+01:00`) is that instant; one without is the wall-clock time in `time_zone`, else
    /// in `homeZone`, else read as UTC (``WallClockTime``). The session carries `time_zone`, else `homeZone`, else the
    /// start's offset as a zone, else `Etc/UTC`.
    func record(index: Int, homeZone: TimeZone?, now: Date) -> Result<SessionRecord, PostedSessionIssue> {
        func issue(_ field: Field, _ reason: String) -> Result<SessionRecord, PostedSessionIssue> {
            .failure(PostedSessionIssue(index: index, field: field.rawValue, reason: reason))
        }
        if let problem { return .failure(PostedSessionIssue(index: index, field: problem.field, reason: problem.reason)) }
        for (field, text) in [(Field.start, start), (.kind, kind), (.source, source), (.timeZone, timeZone), (.key, key)] {
            if let text, let problem = ImportLimits.fieldProblem(text) { return issue(field, problem) }
        }
        var zone = homeZone
        if let timeZone {
            guard let given = TimeZone(identifier: timeZone) else {
                return issue(.timeZone, "\(PostedSessionIssue.quoted(timeZone)) is not a time zone; use an IANA name such as Europe/Berlin")
            }
            zone = given
        }
        guard let start else { return issue(.start, "is missing") }
        guard let stamp = TimestampParser.iso8601Stamp(start, zone: zone) else {
            if let offset = TimestampParser.offsetBeyondLimit(in: start) {
                return issue(.start, "\(PostedSessionIssue.quoted(start)) has the offset \(offset), beyond ±14:00; give an offset between -12:00 and +14:00")
            }
            return issue(.start, "\(PostedSessionIssue.quoted(start)) is not an ISO 8601 date and time such as 2024-03-05T07:30:00+01:00, "
                         + "or a wall-clock time such as 2024-03-05T07:30:00 with time_zone")
        }
        guard let duration else { return issue(.duration, "is missing") }
        // Each value checked alone against the ranges, so that the message names the field at fault.
        if let problem = ImportLimits.problem(start: ImportLimits.earliestStart, duration: duration, now: now) {
            return issue(.duration, Self.dropping("duration ", from: problem))
        }
        if let problem = ImportLimits.problem(start: stamp.date, duration: 1, now: now) { return issue(.start, Self.dropping("the start ", from: problem)) }
        guard let kind else { return issue(.kind, "is missing") }
        guard let normalized = KindNormalizer.normalize(kind) else { return issue(.kind, "is blank; give the kind of practice, such as \"yoga\"") }
        let source = source ?? PostedSessions.defaultSource
        guard !source.trimmed().isEmpty else { return issue(.source, "is blank; leave it out for \"\(PostedSessions.defaultSource)\"") }
        if let key, key.isEmpty { return issue(.key, "is empty; leave it out to key the session by its source, start and end") }
        let carried = zone?.identifier ?? stamp.offset.flatMap(TimestampParser.zoneIdentifier(offset:)) ?? TimestampParser.wallClockZone
        return .success(SessionRecord(start: stamp.date, duration: duration, kind: normalized, source: source, timeZone: carried, key: key))
    }

    /// The limits' message without the field's name it starts with, which the issue names before it.
    private static func dropping(_ name: String, from message: String) -> String {
        message.hasPrefix(name) ? String(message.dropFirst(name.count)) : message
    }
}
