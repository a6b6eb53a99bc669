import StillpointCore

/// The progress of an import on standard error.
final class ImportProgressView: Sendable {
    func update(_ progress: OperationProgress) {}
    func finish() {}
}
