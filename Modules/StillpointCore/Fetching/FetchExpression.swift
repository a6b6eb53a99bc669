import Foundation

/// A computed column or sort key of a dictionary fetch, written as `NSExpression`'s format: arithmetic and
/// functions of attributes (`duration / 60`), and aggregates of the matching rows or each group (`sum(duration)`,
/// `average(score)`, `min(start)`, `max(duration)`, `count(*)`, also spelt `avg`, `minimum`, `maximum`).
///
/// It runs in SQL on both stores, with the predicates' arithmetic: two integers divide as integers, dividing by
/// zero gives nil, NULL in arithmetic gives NULL. A group predicate (``FetchRequest/having``) and sort keys name
/// it by its alias, as Core Data's `havingPredicate` names an expression description.
///
/// ```swift
/// var request = FetchRequest(Session.self)
/// request.properties = [.attribute("kind"), .expression(try FetchExpression("sum(duration) / count(*)"), as: "mean"),
///                       .expression(try FetchExpression("max(duration) / 60"), as: "longestMinutes")]
/// request.groupBy = ["kind"]
/// request.having = try FetchPredicate("mean > 600")
/// request.sortKeys = [.descending("mean")]
/// ```
public struct FetchExpression: Sendable, Hashable, CustomStringConvertible {
    let operand: PredicateOperand

    /// Parses `format`, with `%@` and `%K` placeholders filled from `arguments` as a predicate's are.
    public init(_ format: String, _ arguments: any PredicateArgumentConvertible...) throws(FetchPredicateError) {
        operand = try PredicateParser.parseExpression(format, arguments: arguments.map(\.predicateArgument))
    }

    /// The expression as a format that parses back to it.
    public var description: String { operand.description }

    // MARK: Aggregates

    /// The aggregate a function name of an expression calls: `sum`, `count`, `average`/`avg`, `min`/`minimum`,
    /// `max`/`maximum`, in any case, with or without `NSExpression`'s colon (`sum:`).
    static func aggregate(spelling: String) -> AggregateFunction? {
        var name = spelling.lowercased()
        if name.hasSuffix(":") { name.removeLast() }
        switch name {
        case "sum": return .sum
        case "count": return .count
        case "average", "avg": return .average
        case "min", "minimum": return .minimum
        case "max", "maximum": return .maximum
        default: return nil
        }
    }

    /// The key an aggregate is parsed to, `sum(duration)` or `count(*)`: no attribute can be named so.
    static func aggregateKey(_ function: AggregateFunction, of attribute: String?) -> String {
        "\(spelling(of: function))(\(attribute ?? "*"))"
    }

    private static func spelling(of function: AggregateFunction) -> String {
        switch function {
        case .minimum: return "min"
        case .maximum: return "max"
        default: return function.rawValue
        }
    }

    /// The aggregate and attribute (nil for `count(*)`) an aggregate key names.
    private static func aggregate(key: String) -> (AggregateFunction, String?)? {
        guard key.hasSuffix(")"), let open = key.firstIndex(of: "("),
              let function = aggregate(spelling: String(key[..<open])) else { return nil }
        let attribute = String(key[key.index(after: open)..<key.index(before: key.endIndex)])
        return (function, attribute == "*" ? nil : attribute)
    }

    // MARK: SQL

    /// The expression as one SQL value of `entity`'s table in `dialect`, and the type of its values. Its numbers
    /// and texts are written into the SQL rather than bound, so that a sort key or group predicate may repeat it.
    func sql(in dialect: SQLDialect, of entity: EntityDescription) throws -> (sql: String, type: AttributeType?) {
        var literals: [String: PredicateKeyResolution] = [:]
        let inlined = try Self.inliningValues(operand, into: &literals, dialect: dialect)
        return try PredicateSQLCompiler.compileOperand(inlined, dialect: dialect, entity: entity) { key in
            if let literal = literals[key] { return literal }
            if let (function, attribute) = Self.aggregate(key: key) {
                guard let attribute else { return PredicateKeyResolution(sql: "COUNT(*)", type: .integer) }
                let type = try entity.attribute(position: attribute).type
                let column = dialect.quote(attribute)
                // PostgreSQL sums integers as numeric, which would divide with a fraction: back to an integer.
                let sql = function == .sum && function.resultType(for: type) == .integer
                    ? "CAST(SUM(\(column)) AS BIGINT)" : dialect.aggregate(function, of: column)
                return PredicateKeyResolution(sql: sql, type: function.resultType(for: type))
            }
            return PredicateKeyResolution(sql: dialect.quote(key), type: try entity.attribute(position: key).type)
        }
    }

    /// `operand` with each value replaced by a key that resolves to it as an SQL literal, typed as a parameter
    /// of its value would be.
    private static func inliningValues(_ operand: PredicateOperand, into literals: inout [String: PredicateKeyResolution],
                                       dialect: SQLDialect) throws -> PredicateOperand {
        switch operand {
        case .value(let value):
            let key = "(literal \(literals.count))"
            literals[key] = PredicateKeyResolution(sql: try literal(value, in: dialect), type: PredicateSQLCompiler.type(of: value))
            return .key(key)
        case .key: return operand
        case .arithmetic(let op, let lhs, let rhs):
            return .arithmetic(op, try inliningValues(lhs, into: &literals, dialect: dialect), try inliningValues(rhs, into: &literals, dialect: dialect))
        case .function(let function, let operands):
            return .function(function, try operands.map { try inliningValues($0, into: &literals, dialect: dialect) })
        case .list, .variable, .subqueryCount:
            throw FetchPredicateError(.invalidComparison, "'\(operand)' can't be a column of a dictionary fetch; compute with attributes, numbers, functions and aggregates")
        }
    }

    /// A value as SQL text, cast as the dialect casts a parameter of it.
    private static func literal(_ value: AttributeValue, in dialect: SQLDialect) throws -> String {
        let text: String
        switch value {
        case .null: return "NULL"
        case .integer(let number): text = "\(number)"
        case .bool(let flag): text = flag ? "1" : "0"
        case .double(let number) where number.isFinite: text = "\(number)"
        case .date(let date) where date.timeIntervalSince1970.isFinite: text = "\(date.timeIntervalSince1970)"
        case .string(let string) where !string.unicodeScalars.contains("\u{0}"):
            text = "'" + string.replacingOccurrences(of: "'", with: "''") + "'"
        case .uuid(let uuid): text = "'\(uuid.uuidString)'"
        default:
            throw FetchPredicateError(.invalidComparison, "\(value) can't be written in an expression; use a finite number or a text without NUL")
        }
        let placeholder = dialect.parameter(1)
        return dialect.parameter(1, for: value).replacingOccurrences(of: placeholder, with: "(\(text))")
    }
}
