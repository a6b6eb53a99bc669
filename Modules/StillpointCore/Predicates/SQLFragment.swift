/// A piece of SQL with `?` placeholders and the values to bind to them, in order.
///
/// ```swift
/// let fragment = try FetchPredicate("kind == %@", "yoga").sqlFragment { .column($0, type: .string) }
/// // fragment.sql == "\"kind\" = ?", fragment.arguments == [.string("yoga")]
/// ```
public struct SQLFragment: Sendable, Hashable {
    public var sql: String
    public var arguments: [AttributeValue]

    public init(sql: String, arguments: [AttributeValue] = []) {
        self.sql = sql
        self.arguments = arguments
    }
}
