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
    /// With a practitioner column, the practitioners the file names, in the order it first names them.
    public let practitioners: [String]
    private let reader: RecordReaderHandoff
    /// The operation once it is made, or whether ``cancel()`` came first.
    private let running = Mutex<(operation: ImportOperation?, cancelled: Bool)>((nil, false))

    init(import sessionImport: SessionImport, input: SessionImportInput, reader: sending SessionRecordReader, contentHash: String,
         practitioners: [String]) {
        self.sessionImport = sessionImport
        self.input = input
        self.practitioners = practitioners
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
    /// With a practitioner column, the practitioners the file names are made when the store does not hold them,
    /// and each gets a run of their own (the others' earlier runs are not theirs to replace); `practitioner` is
    /// not used.
    ///
    /// - Parameters:
    ///   - practitioner: whose sessions these are (made if the store does not have them yet).
    ///   - progress: each progress update of the import operation.
    /// - Throws: the store's errors. How the import itself ended (failed part-way, cancelled, the file broken off)
    ///   is in the result, with what was saved before.
    public func run(into container: PersistentContainer, practitioner: String = Practitioner.defaultID,
                    progress: @escaping @Sendable (OperationProgress) -> Void = { _ in }) async throws -> SessionImportResult {
        guard sessionImport.importer.practitionerColumn != nil else {
            let owner = try await Practitioners.rowID(of: practitioner, in: container)
            let zones = try await Practitioners.homeTimeZones(of: [practitioner], in: container)
            let homeTimeZones = try readAgain(zones[practitioner].flatMap { sessionImport.importer.withHomeTimeZone($0) }) ? zones : [:]
            let run = try await begin(for: [owner], in: container)[0]
            let handoff = self.reader
            let operation = makeOperation(linking: .init(Session.importRuns.name, to: ObjectID(entity: ImportRun.entity, rowID: run))) {
                try handoff.takeSource(practitioner: owner)
            }
            var result = await runOperation(operation, in: container, run: run, progress: progress)
            result.homeTimeZones = homeTimeZones
            try await ImportRuns.finish(run, summary: result.summary, complete: result.isComplete, in: container)
            // Only a run that read the whole file and kept sessions from it replaces the earlier ones: a run whose
            // every row was skipped (a wrong format or column) must not take away what the earlier one wrote.
            if result.isComplete, result.keptSessions {
                (result.replacedRuns, result.removedByReplacing) = try await ImportRuns.replaceEarlier(than: run, in: container)
            }
            return result
        }
        let rowIDs = try await Practitioners.rowIDs(of: practitioners, in: container)
        let zones = try await Practitioners.homeTimeZones(of: practitioners, in: container)
        let homeTimeZones = try readAgain(zones.isEmpty ? nil : sessionImport.importer.withHomeTimeZones(zones)) ? zones : [:]
        let owners = practitioners.compactMap { id in rowIDs[id].map { (id: id, rowID: $0) } }
        let runs = try await begin(for: owners.map(\.rowID), in: container)
        var byID: [String: SessionImportSource.Owner] = [:]
        for (owner, run) in zip(owners, runs) { byID[owner.id] = .init(practitioner: owner.rowID, run: run) }
        let handoff = self.reader
        let operation = makeOperation(linking: .init(eachRecordThrough: Session.importRuns.name)) { [byID] in
            try handoff.takeSource(owners: byID)
        }
        var result = await runOperation(operation, in: container, run: runs.first ?? 0, progress: progress)
        result.homeTimeZones = homeTimeZones
        let byRun = operation.summariesByLink
        result.runs = zip(owners.map(\.id), runs).map { id, run in
            var summary = byRun[ObjectID(entity: ImportRun.entity, rowID: run)] ?? ImportSummary()
            summary.recordsRead = summary.inserted + summary.updated + summary.unchanged
            summary.recordsSaved = summary.recordsRead
            return .init(practitioner: id, run: run, summary: summary)
        }
        for practitionerRun in result.runs {
            try await ImportRuns.finish(practitionerRun.run, summary: practitionerRun.summary, complete: result.isComplete, in: container)
        }
        if result.isComplete {
            let kept = result.runs.filter { $0.summary.inserted + $0.summary.updated + $0.summary.unchanged > 0 }.map(\.run)
            (result.replacedRuns, result.removedByReplacing) = try await ImportRuns.replaceEarlier(than: kept, in: container)
        }
        return result
    }

    /// Reads the input again with `importer` (the import's own, reading in home time zones) in place of the reader
    /// opened first; `false` when `importer` is `nil` (no home time zone applies), or the input is a pipe or device
    /// named as a file, read once as it comes, or the import has started.
    private func readAgain(_ importer: (any SessionImporter)?) throws -> Bool {
        guard let importer, !contentHash.isEmpty else { return false }
        return try reader.replace(reading: input.url, with: importer)
    }

    /// Records the runs of the practitioners with row ids `owners`, in one save.
    private func begin(for owners: [Int64], in container: PersistentContainer) async throws -> [Int64] {
        try await ImportRuns.begin(file: sessionImport.file, contentHash: contentHash, format: sessionImport.importer.id,
                                   options: sessionImport.options, practitioners: owners, in: container)
    }

    /// The import of the sessions, linked as `link` says: every session the file holds is linked to its run, new or
    /// already there, so it stays while any run that read it does.
    private func makeOperation(linking link: ImportOperation.Link,
                               source: @escaping ImportOperation.SourceFactory) -> ImportOperation {
        ImportOperation(entity: Session.entity, key: SessionImportSource.key, batchSize: sessionImport.batchSize,
                        linking: link, source: source)
    }

    /// Runs `operation` to its end (or until ``cancel()``), passing on its progress.
    private func runOperation(_ operation: ImportOperation, in container: PersistentContainer, run: Int64,
                              progress: @escaping @Sendable (OperationProgress) -> Void) async -> SessionImportResult {
        let queue = ContextOperationQueue(container: container, name: "import")
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
        return SessionImportResult(run: run, summary: operation.summary, outcome: operation.outcome, stop: reader.stop,
                                   notPractice: reader.notPractice, replacedRuns: [], removedByReplacing: 0)
    }
}
