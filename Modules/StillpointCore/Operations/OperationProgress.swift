/// How far an operation has got: units done, units in all (when known), and a message for people.
///
/// ```swift
/// operation.reportProgress(completed: 3_000, of: 10_000, message: "imported 3000 records")
/// operation.progress.fractionCompleted   // 0.3
/// ```
public struct OperationProgress: Hashable, Sendable {
    /// The units of work done so far.
    public var completedUnitCount: Int
    /// The units of work in all, or `nil` while unknown (a source that cannot tell its length).
    public var totalUnitCount: Int?
    /// What the operation is doing, in words.
    public var message: String?

    public init(completedUnitCount: Int = 0, totalUnitCount: Int? = nil, message: String? = nil) {
        self.completedUnitCount = completedUnitCount
        self.totalUnitCount = totalUnitCount
        self.message = message
    }

    /// The completed fraction between 0 and 1, or `nil` when the total is unknown.
    public var fractionCompleted: Double? {
        guard let totalUnitCount else { return nil }
        guard totalUnitCount > 0 else { return 1 }
        return min(1, max(0, Double(completedUnitCount) / Double(totalUnitCount)))
    }
}
