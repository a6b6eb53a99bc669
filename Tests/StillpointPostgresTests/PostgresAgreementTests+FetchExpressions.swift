import Foundation
import StillpointCore
@testable import StillpointPostgres
import Testing

/// Expressions in dictionary fetches (issue 26, item 2): computed columns (`minutes / 60.0 AS hours`), aggregates
/// in arithmetic (`sum(minutes) / count(*)`), a group predicate and sort keys naming them by alias. SQLite and
/// PostgreSQL give the same rows, and the values computed here from the fixture.
extension PostgresAgreementTests {
    /// The rows of a dictionary fetch on PostgreSQL.
    func postgresDictionaries(_ request: FetchRequest) throws -> [[String: AttributeValue]] {
        let columns = try DictionaryColumn.columns(of: request)
        return try PostgresStoreConnection.reading(on: connection) { reader in
            var rows: [[String: AttributeValue]] = []
            try reader.forEachDictionaryRow(request, columns: columns, streaming: false) { values in
                rows.append(Dictionary(uniqueKeysWithValues: zip(request.properties.map(\.key), values)))
            }
            return rows
        }
    }

    /// Both stores' rows for each request, expected equal.
    func expectSameDictionaries(_ requests: [FetchRequest], sourceLocation: SourceLocation = #_sourceLocation) async throws -> [[[String: AttributeValue]]] {
        let sqlite = try await withSQLite { context in try requests.map { try context.fetchDictionaries($0) } }
        for (request, rows) in zip(requests, sqlite) {
            #expect(try postgresDictionaries(request) == rows, "PostgreSQL and SQLite on \(request.properties)", sourceLocation: sourceLocation)
        }
        return sqlite
    }

    @Test func expressionColumnsAndSortKeysAgree() async throws {
        var request = FetchRequest(Practice.self, predicate: try FetchPredicate("minutes != nil"),
                                   sortedBy: [.descending("hours"), .ascending("uid")])
        request.properties = [
            .attribute("uid"), .expression(try FetchExpression("minutes / 60.0"), as: "hours"),
            .expression(try FetchExpression("minutes / 7"), as: "weeks"), .expression(try FetchExpression("abs(score) * 2 + 1"), as: "scaled"),
            .expression(try FetchExpression("lowercase(name)"), as: "lower"), .expression(try FetchExpression("minutes / %@", 0), as: "none"),
        ]
        let rows = try await expectSameDictionaries([request])[0]
        let expected = Practice.rows.enumerated().compactMap { index, row -> [String: AttributeValue]? in
            guard let minutes = row.minutes else { return nil }
            return ["uid": .integer(Int64(index + 1)), "hours": .double(Double(minutes) / 60), "weeks": .integer(minutes / 7),
                    "scaled": row.score.map { .double(abs($0) * 2 + 1) } ?? .null, "none": .null]
        }.sorted { ($0["hours"]?.numericValue ?? 0, -($0["uid"]?.numericValue ?? 0)) > ($1["hours"]?.numericValue ?? 0, -($1["uid"]?.numericValue ?? 0)) }
        #expect(rows.map { $0.filter { $0.key != "lower" } } == expected)
        #expect(rows.first?["lower"] == .string("ωmega ǆ"), "\(rows.first ?? [:])")
    }

    @Test func aggregatesInExpressionsWithAGroupPredicateAgree() async throws {
        var grouped = FetchRequest(Practice.self, sortedBy: [.descending("mean")])
        grouped.properties = [
            .attribute("done"), .expression(try FetchExpression("sum(minutes) / count(*)"), as: "mean"),
            .expression(try FetchExpression("max(score) * 2"), as: "twice"), .expression(try FetchExpression("count(minutes) - count(score)"), as: "gap"),
        ]
        grouped.groupBy = ["done"]
        grouped.having = try FetchPredicate("mean > 20")
        var whole = FetchRequest(Practice.self)
        whole.properties = [.expression(try FetchExpression("sum(minutes) / count(*)"), as: "mean"), .expression(try FetchExpression("avg(score)"), as: "average"),
                            .expression(try FetchExpression("min(at)"), as: "first")]
        let results = try await expectSameDictionaries([grouped, whole])

        // The same numbers, computed here.
        let groups = Dictionary(grouping: Practice.rows, by: \.done)
        let expected = groups.compactMap { done, rows -> [String: AttributeValue]? in
            let mean = rows.compactMap(\.minutes).reduce(0, +) / Int64(rows.count)
            guard mean > 20 else { return nil }
            let scores = rows.compactMap(\.score)
            return ["done": done.map(AttributeValue.bool) ?? .null, "mean": .integer(mean), "twice": scores.max().map { .double($0 * 2) } ?? .null,
                    "gap": .integer(Int64(rows.compactMap(\.minutes).count - scores.count))]
        }.sorted { ($0["mean"]?.numericValue ?? 0) > ($1["mean"]?.numericValue ?? 0) }
        #expect(results[0] == expected, "\(results[0])")
        #expect(results[0].count >= 2 && results[0].count < groups.count, "the group predicate leaves some groups out: \(results[0])")
        let minutes = Practice.rows.compactMap(\.minutes), scores = Practice.rows.compactMap(\.score)
        #expect(results[1] == [["mean": .integer(minutes.reduce(0, +) / Int64(Practice.rows.count)),
                                "average": .double(scores.reduce(0, +) / Double(scores.count)),
                                "first": .date(Date(timeIntervalSince1970: -86_400))]], "\(results[1])")
    }

    @Test func expressionsReadBackAndRefuseWhatIsNoColumn() throws {
        for format in ["minutes / 60.0", "sum(minutes) / count(*)", "-max(score) ** 2", "abs(min(minutes) - 3)", "average(score) + 1"] {
            let expression = try FetchExpression(format)
            #expect(try FetchExpression(expression.description) == expression, "\(format) reads back from \(expression)")
        }
        #expect(throws: FetchPredicateError.self) { try FetchExpression("sum(minutes + 1)") }
        #expect(throws: FetchPredicateError.self) { try FetchExpression("sum(run.minutes)") }
        #expect(throws: FetchPredicateError.self) { try FetchExpression("minutes /") }
        // Aggregates belong to a fetch's columns, not to a row's predicate.
        #expect(throws: FetchPredicateError.self) { try FetchPredicate("sum(minutes) > 1") }
    }
}
