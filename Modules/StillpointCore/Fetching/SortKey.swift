/// One key of a fetch's order.
///
/// ```swift
/// request.sortKeys = [.descending(Session.start), .ascending("kind")]
/// ```
public struct SortKey: Sendable, Hashable {
    public var attribute: String
    public var ascending: Bool

    public static func ascending(_ attribute: String) -> SortKey { SortKey(attribute: attribute, ascending: true) }
    public static func descending(_ attribute: String) -> SortKey { SortKey(attribute: attribute, ascending: false) }

    public static func ascending<V>(_ attribute: Attribute<V>) -> SortKey { .ascending(attribute.name) }
    public static func descending<V>(_ attribute: Attribute<V>) -> SortKey { .descending(attribute.name) }
}
