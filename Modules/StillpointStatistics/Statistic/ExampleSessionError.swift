/// An example session whose start is not ISO 8601 with an offset: running the example (as a module's conformance
/// check does) fails with it, rather than the module stopping the process when it declares the example.
///
/// ```swift
/// ExampleSession("14 March 2024", minutes: 20).unreadableStart   // "14 March 2024": running its example throws
/// ```
public struct ExampleSessionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The start as the example wrote it.
    public let start: String

    public init(start: String) {
        self.start = start
    }

    public var description: String {
        "an example session starts at '\(start)', which is not ISO 8601 with an offset; write it as 2024-03-14T08:00:00Z"
    }
}
