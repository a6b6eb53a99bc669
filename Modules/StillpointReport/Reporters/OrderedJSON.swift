import StillpointCore

/// A JSON value whose objects keep their members in the order they were written, so that reports are
/// diffable from one run to the next (`JSONSerialization` and `JSONEncoder` reorder or sort keys).
///
/// ```swift
/// let json = OrderedJSON.object([("id", .string("total_time")), ("value", .number(5400))])
/// json.formatted()   // {\n  "id": "total_time",\n  "value": 5400\n}
/// ```
public indirect enum OrderedJSON: Sendable, Hashable {
    case null
    case bool(Bool)
    /// A number; whole values print without a fraction, and NaN or infinity print as `null`.
    case number(Double)
    case string(String)
    case array([OrderedJSON])
    case object([Member])

    /// One member of an object.
    public struct Member: Sendable, Hashable {
        public var key: String
        public var value: OrderedJSON

        public init(_ key: String, _ value: OrderedJSON) {
            self.key = key
            self.value = value
        }
    }

    /// An object from key-value pairs, in order.
    public static func object(_ pairs: KeyValuePairs<String, OrderedJSON>) -> OrderedJSON {
        .object(pairs.map { Member($0.key, $0.value) })
    }

    /// Pretty-printed with two spaces of indentation; empty arrays and objects stay on one line.
    ///
    /// ```swift
    /// OrderedJSON.array([]).formatted()   // "[]"
    /// ```
    public func formatted() -> String {
        var output = ""
        write(to: &output, indentation: "")
        return output
    }

    private func write(to output: inout String, indentation: String) {
        switch self {
        case .null:
            output += "null"
        case .bool(let value):
            output += value ? "true" : "false"
        case .number(let value):
            output += Self.number(value)
        case .string(let value):
            output += JSONText.quoted(value)
        case .array(let elements):
            guard !elements.isEmpty else { output += "[]"; return }
            let inner = indentation + "  "
            output += "[\n"
            for (offset, element) in elements.enumerated() {
                output += inner
                element.write(to: &output, indentation: inner)
                output += offset == elements.count - 1 ? "\n" : ",\n"
            }
            output += indentation + "]"
        case .object(let members):
            guard !members.isEmpty else { output += "{}"; return }
            let inner = indentation + "  "
            output += "{\n"
            for (offset, member) in members.enumerated() {
                output += inner + JSONText.quoted(member.key) + ": "
                member.value.write(to: &output, indentation: inner)
                output += offset == members.count - 1 ? "\n" : ",\n"
            }
            output += indentation + "}"
        }
    }

    /// `5400` rather than `5400.0`; the shortest text that reads back as the same double otherwise.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 1e15 {
            return String(Int64(value))
        }
        return "\(value)"
    }
}
