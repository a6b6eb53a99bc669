import StillpointCore

extension ProgressBar {
    /// Shows an operation's progress: its completed units, and its total once known.
    ///
    /// ```swift
    /// let bar = ProgressBar("Importing", output: .standardError())
    /// for await event in queue.events { if case .progress(let progress) = event.kind { bar.update(progress) } }
    /// ```
    public func update(_ progress: OperationProgress) {
        update(completed: progress.completedUnitCount, total: progress.totalUnitCount)
    }
}
