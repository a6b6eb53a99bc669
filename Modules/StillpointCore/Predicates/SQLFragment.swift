/// A piece of SQL with `?` placeholders and the values to bind to them, in order.
///
/// ```swift
/// let fragment = try FetchPredicate("kind == %@", "yoga").sqlFragment(in: .sqlite) { .column($0, type: .string) }
/// // fragment.sql == "\"kind\" = ?", fragment.arguments == [.string("yoga")]
/// ```
package struct SQLFragment: Sendable, Hashable {
    package var sql: String
    package var arguments: [AttributeValue]

    package init(sql: String, arguments: [AttributeValue] = []) {
        self.sql = sql
        self.arguments = arguments
    }
}
