/// A parameter value as written in a manifest: a scalar's text or a list, with where it was written.
///
/// Typed reading happens in ``StatisticParameters``, so that a wrong type is reported with its place.
/// Literals make examples short: `["kinds": ["yoga"], "minimum_duration": "10m", "count": 3]`.
public struct ParameterValue: Sendable, Hashable {
    public enum Content: Sendable, Hashable {
        case scalar(String)
        case list([ParameterValue])
        case map([String: ParameterValue])
    }

    public var content: Content
    public var location: SourceLocation?

    public init(_ content: Content, location: SourceLocation? = nil) {
        self.content = content
        self.location = location
    }

    /// The scalar's text, or `nil` for a list or map.
    public var text: String? {
        if case .scalar(let text) = content { return text }
        return nil
    }
}

extension ParameterValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral {
    public init(stringLiteral value: String) { self.init(.scalar(value)) }
    public init(integerLiteral value: Int) { self.init(.scalar(String(value))) }
    public init(floatLiteral value: Double) { self.init(.scalar(String(value))) }
    public init(booleanLiteral value: Bool) { self.init(.scalar(value ? "true" : "false")) }
    public init(arrayLiteral elements: ParameterValue...) { self.init(.list(elements)) }
}
