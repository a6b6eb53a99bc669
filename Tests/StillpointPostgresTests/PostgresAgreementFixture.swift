import Foundation
import StillpointCore

/// The entity and rows the agreement tests store on both PostgreSQL and in-memory SQLite: mixed-case and
/// accented text, NULLs, dates, doubles, booleans, UUIDs and bytes.
enum Practice: Entity {
    static let uid = Attribute<Int64>("uid")
    static let name = Attribute<String?>("name")
    static let note = Attribute<String?>("note")
    static let minutes = Attribute<Int64?>("minutes")
    static let score = Attribute<Double?>("score")
    static let at = Attribute<Date?>("at")
    static let done = Attribute<Bool?>("done")
    static let token = Attribute<UUID?>("token")
    static let data = Attribute<Data?>("data")
    static let entity = EntityDescription(
        "Practice", attributes: [uid, name, note, minutes, score, at, done, token, data],
        indexes: [IndexDescription([uid], isUnique: true), IndexDescription([name])])

    static let knownToken = UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF") ?? UUID()

    struct Row {
        var name: String?
        var note: String?
        var minutes: Int64?
        var score: Double?
        var at: Double?
        var done: Bool?
        var token: UUID?
        var data: Data?
    }

    static let rows: [Row] = [
        Row(name: "Zazen", note: "Zazen", minutes: 20, score: 1.5, at: 1_700_000_000, done: true, token: knownToken, data: Data([0, 1, 255])),
        Row(name: "zazen", note: "ZAZEN", minutes: 30, score: 2.25, at: 1_700_000_000.5, done: false),
        Row(name: "ZAZEN", note: nil, minutes: nil, score: -0.5, at: nil, done: nil, data: Data()),
        Row(name: "Café", note: "cafe", minutes: 10, score: nil, at: 1_600_000_000),
        Row(name: "cafe", note: "Café", minutes: 15, score: 3, at: 1_650_000_000.25, done: true),
        Row(name: "CAFÉ", note: "crème brûlée", minutes: 45, score: 1e-7, at: -86_400),
        Row(name: "Résumé", note: "50%_off", minutes: 5, score: 1e300, done: false),
        Row(name: "resume", note: "a*b?c[d]", minutes: 60, score: 0, at: 0),
        Row(name: nil, note: nil, minutes: 25, score: 2, at: 1_700_000_001),
        Row(name: "Straße", note: "strasse", minutes: 12, token: UUID(uuidString: "00000000-0000-0000-0000-000000000001")),
        Row(name: "naïve Über", note: "NAIVE uber", minutes: 33, score: 1.5),
        Row(name: "", note: "", minutes: 0, score: -1),
        Row(name: "a%b_c", note: "a\\b", minutes: 7, score: 7.75, at: 1_700_000_000),
        Row(name: "Ωmega ǅ", note: "ωMEGA", minutes: 99, score: 99.5, done: true),
    ]

    /// Row `index`'s values in attribute order; its uid is `index + 1`.
    static func values(_ index: Int) -> ContiguousArray<AttributeValue> {
        let row = rows[index]
        return [
            .integer(Int64(index + 1)), row.name.map(AttributeValue.string) ?? .null, row.note.map(AttributeValue.string) ?? .null,
            row.minutes.map(AttributeValue.integer) ?? .null, row.score.map(AttributeValue.double) ?? .null,
            row.at.map { .date(Date(timeIntervalSince1970: $0)) } ?? .null, row.done.map(AttributeValue.bool) ?? .null,
            row.token.map(AttributeValue.uuid) ?? .null, row.data.map(AttributeValue.binary) ?? .null,
        ]
    }

    /// The predicates both stores must answer alike.
    static func predicates() throws -> [FetchPredicate] {
        let formats = [
            "name == 'cafe'", "name ==[c] 'CAFE'", "name ==[d] 'cafe'", "name ==[cd] 'CAFE'", "name !=[c] 'zazen'",
            "name BEGINSWITH 'Za'", "name BEGINSWITH[c] 'za'", "name BEGINSWITH[cd] 'RE'", "name ENDSWITH 'é'",
            "name ENDSWITH[cd] 'E'", "name CONTAINS 'a'", "name CONTAINS[c] 'Z'", "name CONTAINS[cd] 'UBER'",
            "name CONTAINS '%'", "name CONTAINS '_'", "note CONTAINS '*'", "note CONTAINS '\\\\'",
            "name LIKE 'c*'", "name LIKE[c] 'c*'", "name LIKE[cd] 'cafe'", "name LIKE '?azen'", "name LIKE 'a%b_c'",
            "note LIKE 'a\\\\*b*'", "name LIKE '*'", "note LIKE[c] '*off'",
            "name IN {'Zazen', 'cafe'}", "name IN {'Zazen', nil}", "name IN[c] {'zazen', 'résumé'}", "name IN {}",
            "minutes BETWEEN {10, 30}", "score BETWEEN {0, 2}", "name BETWEEN {'A', 'Z'}",
            "score > 1.5", "score < 2", "score >= 1.5", "minutes > 15.5", "minutes <= 12",
            "minutes == nil", "minutes != nil", "name == nil", "name != nil", "name != 'Zazen'", "nil == nil", "nil != nil",
            "note == name", "note != name", "note ==[c] name", "note ==[cd] name", "NOT (minutes > 20)", "NOT name BEGINSWITH 'Z'",
            "name > 'M'", "name < 'a'", "name <[c] 'm'", "name >=[cd] 'e'",
            "done == YES", "done == NO", "done != YES", "done == nil",
            "minutes > 10 AND (score < 2 OR name ==[c] 'cafe')", "TRUEPREDICATE", "FALSEPREDICATE",
        ]
        var predicates = try formats.map { try FetchPredicate(format: $0, arguments: []) }
        predicates.append(try FetchPredicate("at > %@", Date(timeIntervalSince1970: 1_650_000_000)))
        predicates.append(try FetchPredicate("at BETWEEN {%@, %@}", Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 1_700_000_000)))
        predicates.append(try FetchPredicate("token == %@", knownToken))
        predicates.append(try FetchPredicate("token == %@", knownToken.uuidString.lowercased()))
        predicates.append(try FetchPredicate("token ==[c] %@", knownToken.uuidString.lowercased()))
        predicates.append(try FetchPredicate("token != nil"))
        predicates.append(try FetchPredicate("data == %@", Data([0, 1, 255])))
        predicates.append(try FetchPredicate("data > %@", Data([0])))
        return predicates
    }
}
