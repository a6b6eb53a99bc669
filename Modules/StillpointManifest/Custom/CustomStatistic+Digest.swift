import Foundation
import PracticeLog
import StillpointCore
import StillpointStatistics

extension CustomStatistic {
    /// The session attributes the digest holds: a custom statistic over sessions that reads only these is
    /// computed from the report's digest, with its predicate evaluated in memory, instead of by a query of its own.
    static let digestAttributes: Set<String> = ["start", "duration", "kind", "source", "timeZone"]

    /// Whether the statistic can be computed from the digest alone.
    var readsDigest: Bool {
        entity.name == Session.entity.name
            && (predicate?.referencedKeys ?? []).isSubset(of: Self.digestAttributes)
            && attribute.map(Self.digestAttributes.contains) ?? true
            && Set(groupBy).isSubset(of: ["kind", "source", "timeZone"])
    }

    /// The aggregate over the sessions `filter` and the statistic's predicate admit, grouped as the manifest
    /// says, from the digest's rows: the same values as the store's `GROUP BY` query gives.
    func value(from digest: SessionDigest, filter: SessionFilter) -> StatisticValue {
        digest.withColumns { columns in
            var groups: [[ByteInterner.Number]: Aggregate] = [:]
            for index in 0..<columns.count where filter.admits(start: columns.starts[index], duration: columns.durations[index]) {
                let row = columns[index]
                func value(_ key: String) -> AttributeValue { Self.value(of: key, in: row, columns) }
                if let kinds = filter.kinds, !kinds.contains(where: { value("kind") == .string($0) }) { continue }
                if let predicate, !predicate.evaluate(value) { continue }
                let group = groupBy.map { Self.number(of: $0, in: row) }
                groups[group, default: Aggregate()].add(attribute.map(value), function)
            }
            func result(_ aggregate: Aggregate?) -> StatisticValue {
                Self.value(aggregate?.value(function) ?? (function == .count ? .integer(0) : .null), function: function, unit: unit)
            }
            guard !groupBy.isEmpty else { return result(groups[[]]) }
            // The store's order: each key's texts byte by byte, null first.
            let names = groupBy.map { Self.names(of: $0, columns) }
            let ordered = groups.keys.sorted { lhs, rhs in
                for (position, (left, right)) in zip(lhs, rhs).enumerated() where left != right {
                    return names[position].precedes(left, right)
                }
                return false
            }
            let rows = ordered.map { key in
                var row: [String: AttributeValue] = [Self.valueKey: groups[key]?.value(function) ?? .null]
                for (position, name) in groupBy.enumerated() {
                    row[name] = key[position] == 0 ? .null : .string(names[position].names[Int(key[position])])
                }
                return row
            }
            return Self.record(rows[...], keys: groupBy[...]) { Self.value($0[Self.valueKey] ?? .null, function: function, unit: unit) }
        }
    }

    /// One aggregate as SQL computes it: `COUNT(*)` or `COUNT(x)` (non-null values), `SUM`, `AVG`, `MIN`, `MAX`.
    struct Aggregate {
        var count = 0
        var sum = 0.0
        var extreme: AttributeValue?

        mutating func add(_ value: AttributeValue?, _ function: AggregateFunction) {
            guard let value else { count += 1; return }
            if value == .null { return }
            count += 1
            sum += value.numericValue ?? 0
            switch function {
            case .minimum: if extreme.map({ value.compare(to: $0) == .orderedAscending }) ?? true { extreme = value }
            case .maximum: if extreme.map({ $0.compare(to: value) == .orderedAscending }) ?? true { extreme = value }
            default: break
            }
        }

        func value(_ function: AggregateFunction) -> AttributeValue {
            switch function {
            case .count: return .integer(Int64(count))
            case .sum: return count == 0 ? .null : .double(sum)
            case .average: return count == 0 ? .null : .double(sum / Double(count))
            case .minimum, .maximum: return extreme ?? .null
            }
        }
    }

    private static func value(of key: String, in row: DigestColumns.Row, _ columns: DigestColumns) -> AttributeValue {
        func text(_ number: ByteInterner.Number, _ names: ByteInterner) -> AttributeValue {
            number == 0 ? .null : .string(names.names[Int(number)])
        }
        switch key {
        case "start": return .date(Date(timeIntervalSince1970: row.start))
        case "duration": return .double(row.duration)
        case "kind": return text(row.kind, columns.kindNames)
        case "source": return text(row.source, columns.sourceNames)
        case "timeZone": return text(row.zone, columns.zoneNames)
        default: return .null
        }
    }

    private static func number(of key: String, in row: DigestColumns.Row) -> ByteInterner.Number {
        switch key {
        case "kind": return row.kind
        case "source": return row.source
        case "timeZone": return row.zone
        default: return 0
        }
    }

    private static func names(of key: String, _ columns: DigestColumns) -> ByteInterner {
        switch key {
        case "source": return columns.sourceNames
        case "timeZone": return columns.zoneNames
        default: return columns.kindNames
        }
    }
}
