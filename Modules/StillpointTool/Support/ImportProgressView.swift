import StillpointCore
import StillpointReport

/// The progress of an import on standard error: counts and rate, redrawn in place on a terminal.
final class ImportProgressView: Sendable {
    private let bar = ProgressBar("Importing", unit: "rows", output: .standardError())

    func update(_ progress: OperationProgress) { bar.update(progress) }
    func finish() { bar.finish() }
}
