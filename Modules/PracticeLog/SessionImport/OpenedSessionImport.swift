import Foundation
import StillpointCore
import Synchronization

/// A ``SessionImport`` whose input is open and checked, ready to run into a store.
///
/// ```swift
/// let opened = try SessionImport(file: "-", importer: AppleHealthImporter()).open()
/// if let rule = opened.timeRule { print(rule) }
/// let result = try await opened.run(into: container) { progress in print(progress.completed) }
/// ```
public final class OpenedSessionImport: Sendable {
    public let sessionImport: SessionImport
    /// What is read: the file named, or the copy of standard input.
    public let input: SessionImportInput
    /// The rule the importer applies to times without a zone, to tell the person, if it has one.
    public let timeRule: String?
    /// The content's hash, by which a later import of the same file is known; empty for a pipe or device.
    public let contentHash: String
    private let reader: RecordReaderHandoff
    /// The operation once it is made, or whether ``cancel()`` came first.
    private let running = Mutex<(operation: ImportOperation?, cancelled: Bool)>((nil, false))

    init(import sessionImport: SessionImport, input: SessionImportInput, reader: sending SessionRecordReader, contentHash: String) {
        self.sessionImport = sessionImport
        self.input = input
        self.timeRule = reader.timeRule
        self.contentHash = contentHash
        self.reader = RecordReaderHandoff(reader)
    }

    /// Stops the import: a running one at its next batch (the batches saved before stay), one not started yet
    /// as soon as it starts; safe from any thread, such as a signal handler's.
    public func cancel() {
        let operation = running.withLock { state in
            state.cancelled = true
            return state.operation
        }
        operation?.cancel()
    }

    /// Imports into `container`: records the run, saves the sessions in batches linked to it, records how it
    /// ended, and, when it read the whole file and kept sessions from it, replaces the earlier runs of the file.
    ///
    /// - Parameters:
    ///   - practitioner: whose sessions these are (made if the store does not have them yet).
    ///   - progress: each progress update of the import operation.
    /// - Throws: the store's errors. How the import itself ended (failed part-way, cancelled, the file broken off)
    ///   is in the result, with what was saved before.
    public func run(into container: PersistentContainer, practitioner: String = Practitioner.defaultID,
                    progress: @escaping @Sendable (OperationProgress) -> Void = { _ in }) async throws -> SessionImportResult {
        let owner = try await Practitioners.rowID(of: practitioner, in: container)
        let run = try await ImportRuns.begin(file: sessionImport.file, contentHash: contentHash,
                                             format: sessionImport.importer.id, options: sessionImport.options,
                                             practitioner: owner, in: container)
        let queue = ContextOperationQueue(container: container, name: "import")
        let handoff = self.reader
        // Every session the file holds is linked to this run, new or already there: it stays while any run that read it does.
        let operation = ImportOperation(entity: Session.entity, key: SessionImportSource.key, batchSize: sessionImport.batchSize,
                                        linking: .init(Session.importRuns.name, to: ObjectID(entity: ImportRun.entity, rowID: run))) {
            try handoff.takeSource(practitioner: owner)
        }
        let cancelledFirst = running.withLock { state in
            state.operation = operation
            return state.cancelled
        }
        if cancelledFirst { operation.cancel() }
        let events = queue.events
        queue.addOperation(operation)
        for await event in events where event.operation === operation {
            if case .progress(let update) = event.kind { progress(update) }
            if case .finished = event.kind { break }
            if case .failed = event.kind { break }
            if case .cancelled = event.kind { break }
        }
        var result = SessionImportResult(run: run, summary: operation.summary, outcome: operation.outcome, stop: handoff.stop,
                                         notPractice: handoff.notPractice,
                                         replacedRuns: [], removedByReplacing: 0)
        try await ImportRuns.finish(run, summary: result.summary, complete: result.isComplete, in: container)
        // Only a run that read the whole file and kept sessions from it replaces the earlier ones: a run whose
        // every row was skipped (a wrong format or column) must not take away what the earlier one wrote.
        if result.isComplete, result.keptSessions {
            (result.replacedRuns, result.removedByReplacing) = try await ImportRuns.replaceEarlier(than: run, practitioner: owner, in: container)
        }
        return result
    }
}
