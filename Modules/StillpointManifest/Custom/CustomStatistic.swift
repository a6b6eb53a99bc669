import Foundation
import PracticeLog
import StillpointCore
import StillpointStatistics
import StillpointSQL

/// A statistic declared in a manifest with no code: one aggregate of one attribute, compiled to the core's
/// dictionary fetch (SQL `SUM`, `AVG`, `MIN`, `MAX` or `COUNT`), optionally filtered and grouped.
///
/// Predicates go through the core's predicate parser, so no SQL is ever pasted in. Over `Session`, the
/// report's filters (`from`, `until`, `kinds`, `as_of`) and the qualifying-session rule apply as well.
///
/// ```yaml
/// custom_statistics:
///   yoga_time:
///     name: Yoga time
///     function: sum
///     attribute: duration
///     where: "kind == 'yoga'"
///     group_by: [source]
///     unit: seconds
/// ```
///
/// ```swift
/// let yogaTime = try CustomStatistic(id: "yoga_time", function: .sum, attribute: "duration",
///                                    where: "kind == 'yoga'", groupBy: ["source"])
/// ```
public struct CustomStatistic: Statistic {
    public let id: String
    public let description: StatisticDescription
    public let entity: EntityDescription
    public let function: AggregateFunction
    /// The attribute aggregated; `nil` only for `count`, which then counts the matching objects.
    public let attribute: String?
    /// The `where` predicate as written, and parsed.
    public let predicateFormat: String?
    public let predicate: FetchPredicate?
    /// Attributes whose values key the result: a record by the first, then nested by the next.
    public let groupBy: [String]
    public let unit: StatisticUnit

    /// The key of the aggregate's column; attribute names starting with `_` are reserved, so it clashes with none.
    static let valueKey = "_value"

    /// Checks the definition against `entity`: the attribute, the predicate's syntax, names and comparisons,
    /// and the grouping attributes.
    ///
    /// `unit` defaults to `count` for `count` and to `seconds` for the others, durations being the numbers
    /// sessions have.
    public init(id: String, name: String? = nil, summary: String? = nil, entity: EntityDescription = Session.entity,
                function: AggregateFunction, attribute: String? = nil, where format: String? = nil,
                groupBy: [String] = [], unit: StatisticUnit? = nil) throws(CustomStatisticError) {
        func failure(_ field: CustomStatisticError.Field, index: Int? = nil, _ message: String,
                     predicateError: FetchPredicateError? = nil) -> CustomStatisticError {
            CustomStatisticError(statistic: id, field: field, index: index, message: message, predicateError: predicateError)
        }
        let names = entity.attributes.map(\.name)
        func unknown(_ name: String) -> String {
            // A relationship's column holds row ids, which mean nothing to a reader: it is neither aggregated nor
            // grouped by; totals per import run are what by_import is for.
            if let relationship = entity.relationship(named: name) {
                return "'\(name)' is a relationship of \(entity.name) (to \(relationship.destination)), not an attribute: custom "
                    + "statistics take attributes (\(names.joined(separator: ", ")))"
                    + (relationship.destination == ImportRun.entity.name ? "; by_import totals the sessions of each import run" : "")
            }
            return "\(entity.name) has no attribute '\(name)'" + NameSuggestionHint.hint(name, names)
                + " (its attributes: \(names.joined(separator: ", ")))"
        }

        if let attribute {
            guard let description = entity.attribute(named: attribute) else { throw failure(.attribute, unknown(attribute)) }
            let isNumeric = [AttributeType.integer, .double, .bool].contains(description.type)
            if function == .sum || function == .average, !isNumeric {
                throw failure(.attribute, "'\(attribute)' is \(Self.article(description.type)) attribute; \(function.rawValue) "
                              + "needs a number: use minimum, maximum or count, or a numeric attribute")
            }
            if description.type == .binary, function != .count {
                throw failure(.attribute, "'\(attribute)' holds binary data, which has no \(function.rawValue)")
            }
        } else if function != .count {
            throw failure(.attribute, "\(function.rawValue) needs an attribute, e.g. attribute: \(names.first ?? "duration")")
        }

        var parsed: FetchPredicate?
        if let format {
            do {
                let predicate = try FetchPredicate(format: format, arguments: [])
                // By names and types: what every store needs.
                try predicate.check { key in
                    guard let attribute = entity.attribute(named: key) else {
                        throw FetchPredicateError(.unknownAttribute, unknown(key), format: format, offset: Self.offset(of: key, in: format))
                    }
                    return .column(key, type: attribute.type)
                }
                parsed = predicate
            } catch let error as FetchPredicateError {
                throw failure(.where, error.message, predicateError: error)
            } catch {
                throw failure(.where, "\(error)")
            }
        }

        for (index, name) in groupBy.enumerated() where entity.attribute(named: name) == nil {
            throw failure(.groupBy, index: index, unknown(name))
        }

        self.id = id
        self.entity = entity
        self.function = function
        self.attribute = attribute
        self.predicateFormat = format
        self.predicate = parsed
        self.groupBy = groupBy
        self.unit = unit ?? (function == .count ? .count : .seconds)
        let isSession = entity.name == Session.entity.name
        self.description = StatisticDescription(
            name: name ?? Self.title(of: id),
            summary: summary ?? Self.summary(function: function, attribute: attribute, entity: entity.name, where: format, groupBy: groupBy),
            parameters: isSession ? [.kinds, .minimumDuration, .asOf] : [])
        // A statistic the digest can't answer runs its predicate as SQL, on whichever store the manifest is run
        // with: what one store refuses (a MATCHES pattern PostgreSQL can't mean as ICU does) is the manifest's
        // mistake, found when it is validated rather than when the report runs.
        if let parsed, !readsDigest {
            do {
                for dialect in SQLDialect.builtInStores {
                    _ = try parsed.sqlFragment(in: dialect) { key in .column(key, type: entity.attribute(named: key)?.type ?? .string) }
                }
            } catch let error as FetchPredicateError {
                var explained = error
                explained.message += " (this statistic reads attributes the report's digest doesn't hold, so its where: runs in the store, and a manifest must run on either store)"
                throw failure(.where, explained.message, predicateError: explained)
            } catch {
                throw failure(.where, "\(error)")
            }
        }
    }

    public func prepare(_ parameters: StatisticParameters) throws -> PreparedStatistic {
        let filter = entity.name == Session.entity.name ? try SessionFilter(parameters) : nil
        if let filter, readsDigest {
            return PreparedStatistic(reading: filter) { digest in StatisticResult(self.value(from: digest, filter: filter)) }
        }
        return PreparedStatistic(entities: [entity.name]) { context in
            StatisticResult(try self.value(filter: filter, in: context))
        }
    }

    /// The aggregate computed by the store, in one `GROUP BY` query over the rows `filter` (for sessions) and
    /// the statistic's predicate admit.
    func value(filter: SessionFilter?, in context: isolated ObjectContext) throws -> StatisticValue {
        let parts = [filter?.predicate, predicate].compactMap { $0 }
        var request = FetchRequest(entity, predicate: parts.isEmpty ? nil : .and(parts))
        let aggregate: FetchProperty = attribute.map { .aggregate(function, of: $0, as: Self.valueKey) } ?? .count(as: Self.valueKey)
        request.properties = groupBy.map { .attribute($0) } + [aggregate]
        request.groupBy = groupBy
        request.sortKeys = groupBy.map { .ascending($0) }
        let rows = try context.fetchDictionaries(request)
        func value(_ row: [String: AttributeValue]) -> StatisticValue {
            Self.value(row[Self.valueKey] ?? .null, function: function, unit: unit)
        }
        guard !groupBy.isEmpty else {
            return rows.first.map(value) ?? Self.value(.null, function: function, unit: unit)
        }
        return Self.record(rows[...], keys: groupBy[...], value: value)
    }

    // MARK: Values

    /// The statistic's value for an aggregate: no rows sum and count to 0, and have no average, minimum or maximum.
    static func value(_ aggregate: AttributeValue, function: AggregateFunction, unit: StatisticUnit) -> StatisticValue {
        switch aggregate {
        case .null:
            return function == .sum || function == .count ? .quantity(0, unit) : .none
        case .integer, .double:
            return .quantity(aggregate.numericValue ?? 0, unit)
        default:
            return .text(groupKey(aggregate))
        }
    }

    /// Rows sorted by `keys`, as records keyed by the first key's values, nested by the next ones.
    static func record(_ rows: ArraySlice<[String: AttributeValue]>, keys: ArraySlice<String>,
                       value: ([String: AttributeValue]) -> StatisticValue) -> StatisticValue {
        guard let key = keys.first else { return rows.first.map(value) ?? .none }
        var fields: [StatisticField] = []
        var start = rows.startIndex
        while start < rows.endIndex {
            let group = rows[start][key] ?? .null
            var end = start
            while end < rows.endIndex, (rows[end][key] ?? .null) == group { end += 1 }
            fields.append(StatisticField(groupKey(group), record(rows[start..<end], keys: keys.dropFirst(), value: value)))
            start = end
        }
        return .record(fields)
    }

    /// A group value as a record key: text as is, numbers and instants as a manifest would write them.
    static func groupKey(_ value: AttributeValue) -> String {
        switch value {
        case .null: return "none"
        case .string(let text): return text
        case .integer(let number): return String(number)
        case .double(let number): return number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number)
        case .bool(let flag): return flag ? "true" : "false"
        case .date(let date): return date.formatted(.iso8601)
        case .uuid(let uuid): return uuid.uuidString.lowercased()
        case .binary(let data): return data.base64EncodedString()
        }
    }

    // MARK: Descriptions

    /// `yoga_time` → `Yoga time`.
    static func title(of id: String) -> String {
        let words = id.split(separator: "_").joined(separator: " ")
        return words.prefix(1).uppercased() + words.dropFirst()
    }

    static func summary(function: AggregateFunction, attribute: String?, entity: String, where format: String?, groupBy: [String]) -> String {
        var text: String
        switch (function, attribute) {
        case (.count, nil): text = "The number of \(entity) objects"
        case (.count, let attribute?): text = "The number of \(entity) objects with a \(attribute)"
        case (_, let attribute?): text = "The \(function.rawValue) of \(attribute) over \(entity)"
        case (_, nil): text = "The \(function.rawValue) over \(entity)"
        }
        if let format { text += " where \(format)" }
        if !groupBy.isEmpty { text += ", by \(groupBy.joined(separator: " and "))" }
        return text + "."
    }

    private static func article(_ type: AttributeType) -> String {
        (type == .integer ? "an " : "a ") + type.rawValue
    }

    /// The offset of `key` as a whole word in `format`, for a caret under an unknown name.
    static func offset(of key: String, in format: String) -> Int? {
        let characters = Array(format), target = Array(key)
        guard !target.isEmpty, characters.count >= target.count else { return nil }
        func isWordCharacter(_ character: Character) -> Bool { character.isLetter || character.isNumber || character == "_" }
        for start in 0...(characters.count - target.count) where Array(characters[start..<start + target.count]) == target {
            let before = start == 0 || !isWordCharacter(characters[start - 1])
            let after = start + target.count == characters.count || !isWordCharacter(characters[start + target.count])
            if before && after { return start }
        }
        return nil
    }
}
