import Foundation
import StillpointCore
import Testing

// The examples of the Typed Predicates article (StillpointCore.docc/TypedPredicates.md), compiled here; each is
// checked against the format text the article says it means.

private typealias Session = ArticleSession.Session

/// Collects the predicates written one a line, as the article lists them.
@resultBuilder private enum PredicateList {
    static func buildBlock(_ predicates: FetchPredicate...) -> [FetchPredicate] { predicates }
}

private enum Formats {
    static func parsed() throws -> FetchPredicate {
        let predicate = try FetchPredicate("kind ==[c] %@ AND duration >= %@", "yoga", 600)
        return predicate
    }

    static func typed() -> FetchRequest {
        let predicate = Session.kind == "yoga" && Session.duration >= 600
        let request = FetchRequest(Session.self, predicate: predicate, sortedBy: [.descending(Session.start)])
        return request
    }

    @PredicateList static var scores: [FetchPredicate] {
        Item.score > 3.5            // score > 3.5: items without a score don't match
        Item.score == nil || Item.score < 2
    }

    @PredicateList static var text: [FetchPredicate] {
        Session.kind.beginsWith("yo")                                            // kind BEGINSWITH "yo"
        Session.source.contains("health", options: .caseInsensitive)             // source CONTAINS[c] "health"
        Session.note.endsWith("cafe", options: [.caseInsensitive, .diacriticInsensitive]) // note ENDSWITH[cd] "cafe"
        Session.key.like("csv-*")                                                // key LIKE "csv-*"
    }

    static func combined() throws -> FetchPredicate {
        let long = Session.duration >= 1_800
        let practice = Session.kind.in(["yoga", "meditation"]) && (long || Session.note != nil)
        let parsed = try FetchPredicate("source == %@", "csv")
        let both = practice && !parsed
        return both
    }

    static func built(asOf: Date, kinds: [String]?) -> FetchPredicate {
        var parts = [Session.duration > 0, Session.start <= asOf]
        if let kinds { parts.append(Session.kind.in(kinds)) }
        let predicate = FetchPredicate.and(parts)
        return predicate
    }

    static func closure() -> FetchRequest {
        let request = FetchRequest(Session.self, where: { $0.duration >= 600 && $0.kind == "yoga" },
                                   sortedBy: [.descending(Session.start)], limit: 10)
        return request
    }
}

@Suite("Typed predicates article")
struct TypedPredicatesArticleTests {
    @Test func eachExampleMeansTheFormatTheArticleGives() throws {
        #expect(Formats.typed().predicate == (try FetchPredicate("kind == %@ AND duration >= %@", "yoga", 600.0)))
        #expect(try Formats.parsed() == (try FetchPredicate(format: "kind ==[c] 'yoga' AND duration >= 600", arguments: [])))
        #expect(Formats.scores.map(\.description) == ["score > 3.5", "score == nil OR score < 2.0"])
        #expect(Formats.text.map(\.description)
                == [#"kind BEGINSWITH "yo""#, #"source CONTAINS[c] "health""#, #"note ENDSWITH[cd] "cafe""#, #"key LIKE "csv-*""#])
        #expect(try Formats.combined() == (try FetchPredicate(
            "kind IN %@ AND (duration >= 1800.0 OR note != nil) AND NOT source == %@", ["yoga", "meditation"], "csv")))
        let asOf = Date(timeIntervalSince1970: 1_700_000_000)
        #expect(Formats.built(asOf: asOf, kinds: ["yoga"]) == (try FetchPredicate(
            "duration > 0.0 AND start <= %@ AND kind IN %@", asOf, ["yoga"])))
        #expect(Formats.closure().predicate == (Session.duration >= 600 && Session.kind == "yoga"))
        #expect(Formats.closure().limit == 10)
    }
}
