/// How urgently a ``ContextOperationQueue`` should start an operation once it is ready.
///
/// Among the ready operations, a queue starts the one with the highest priority first, and among equal
/// priorities the one enqueued first. Priorities order the start; they never stop a running operation.
///
/// ```swift
/// let report = ContextOperation(priority: .high) { context, _ in try context.count(for: FetchRequest(Item.self)) }
/// let custom = OperationPriority(rawValue: 2)   // between .normal and .high
/// ```
public struct OperationPriority: RawRepresentable, Comparable, Hashable, Sendable {
    public var rawValue: Int

    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    public static let veryLow = OperationPriority(rawValue: -8)
    public static let low = OperationPriority(rawValue: -4)
    public static let normal = OperationPriority(rawValue: 0)
    public static let high = OperationPriority(rawValue: 4)
    public static let veryHigh = OperationPriority(rawValue: 8)

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
