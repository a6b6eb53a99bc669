import Foundation
import Synchronization

/// Inserts or updates objects from a source of records, matching them by a uniqueness key, in batches that
/// are each saved and then dropped from memory.
///
/// ```swift
/// let importOperation = ImportOperation(entity: Session.entity, key: ["key"], batchSize: 1_000) {
///     SessionSource(reader: try InsightTimerImporter().makeRecordReader(url: url))
/// }
/// queue.addOperation(importOperation)
/// let summary = try await importOperation.value   // inserted, updated, unchanged, skipped
/// ```
///
/// Each batch is written in one transaction, as rows rather than managed objects (see ``ImportBatch``): new
/// records are inserted with a prepared statement, records whose key exists are looked up with one query
/// per batch (`key IN (...)`), never one per record, and update only the attributes whose values differ, so
/// importing the same records again writes nothing and bumps no versions. Each written batch records a
/// change set, which contexts merge as they merge saves. Give the key attributes a unique index: new records
/// then need no look-up at all, and each look-up is fast.
///
/// With a ``Link``, every row the import meets (inserted, updated or found unchanged) is also linked to one object
/// through a many-to-many relationship, in the same transaction as its batch: a row read by several imports
/// belongs to each of them.
///
/// ```swift
/// let run = ObjectID(entity: ImportRun.entity, rowID: runID)
/// ImportOperation(entity: Session.entity, key: ["key"], linking: .init("importRuns", to: run)) { source }
/// ```
///
/// When it fails, the batches already saved stay saved and the error is an ``ImportOperationError`` that
/// says how far it got; when it is cancelled, ``summary`` says the same. Importing again is the way to
/// resume: the saved records match their keys and are left as they are.
public final class ImportOperation: ContextOperation<ImportSummary>, @unchecked Sendable {
    /// Makes the source, inside the import's context, when the import starts.
    public typealias SourceFactory = @Sendable () throws -> any ImportRecordSource

    public let entity: EntityDescription
    /// The attributes that identify a record across imports.
    public let key: [String]
    /// How many records go into one look-up and one save.
    public let batchSize: Int
    /// The attribute that records which import wrote a row, if any: records set it, it is written to every row
    /// the import meets, and a row whose only change is this attribute counts as unchanged.
    public let provenance: String?
    /// The object every row the import meets is linked to, if any.
    public let link: Link?
    private let makeSource: SourceFactory
    private let current = LockedState(ImportSummary())
    private let currentByLink = LockedState<[ObjectID: ImportSummary]>([:])
    /// Key look-ups made so far: at most one per batch, none for a batch of new records keyed by a unique index.
    let keyLookups = Atomic<Int>(0)

    /// An import of the records `source` makes.
    ///
    /// - Parameters:
    ///   - key: the attributes that identify a record; the entity's first uniqueness constraint by default.
    ///     Without one, the operation fails with ``ContextOperationError/misused(identifier:reason:)``.
    ///   - batchSize: records per look-up and save (at least one).
    ///   - context: a background context for the import alone (it is reset after each batch); `nil` for a
    ///     fresh one.
    ///   - linking: a many-to-many relationship of the entity and the object to link every row the import meets to.
    ///   - source: makes the source once the import runs, in its context.
    public init(entity: EntityDescription, key: [String]? = nil, batchSize: Int = 1_000, provenance: String? = nil,
                linking link: Link? = nil, identifier: String? = nil, priority: OperationPriority = .normal, context: ObjectContext? = nil,
                source: @escaping SourceFactory) {
        let key = key ?? entity.uniquenessConstraints.first ?? []
        self.entity = entity
        self.key = key
        self.batchSize = max(1, batchSize)
        self.provenance = provenance
        self.link = link
        self.makeSource = source
        super.init(identifier: identifier, priority: priority, context: context)
        if key.isEmpty { recordMisuse("an import of \(entity.name) needs a key: pass one, or give the entity a unique index") }
    }

    /// An import of records held in memory.
    ///
    /// ```swift
    /// ImportOperation(entity: Item.entity, records: [ImportRecord(["uid": .integer(1), "title": .string("a")])])
    /// ```
    public convenience init(entity: EntityDescription, key: [String]? = nil, batchSize: Int = 1_000,
                            records: [ImportRecord], identifier: String? = nil, priority: OperationPriority = .normal,
                            context: ObjectContext? = nil) {
        self.init(entity: entity, key: key, batchSize: batchSize, identifier: identifier, priority: priority,
                  context: context, source: { ImportRecordArraySource(records: records) })
    }

    /// What the import has done so far; after it ended, what it did (also when it failed or was cancelled).
    public var summary: ImportSummary {
        current.withLock { $0 }
    }

    /// What ``summary`` counts as inserted, updated and unchanged, by the object each record named
    /// (``ImportRecord/link``), for the saved batches; records that named none are not in it.
    ///
    /// ```swift
    /// let aliceRun = operation.summariesByLink[ObjectID(entity: ImportRun.entity, rowID: run)]?.inserted
    /// ```
    public var summariesByLink: [ObjectID: ImportSummary] {
        currentByLink.withLock { $0 }
    }

    public override func main(context: isolated ObjectContext) async throws -> ImportSummary {
        var summary = ImportSummary()
        var position: Int?
        do {
            let plan = try ImportPlan(entity: entity, key: key, provenance: provenance)
            let linkPlan = try link.map { try $0.plan(from: entity, in: context.store.schema) }
            var source = try makeSource()
            var batch: [ImportRecord] = []
            batch.reserveCapacity(batchSize)
            var exhausted = false
            while !exhausted {
                try checkCancellation()
                batch.removeAll(keepingCapacity: true)
                while batch.count < batchSize {
                    guard let element = try source.next() else {
                        exhausted = true
                        break
                    }
                    switch element {
                    case .record(let record):
                        summary.recordsRead += 1
                        position = record.position
                        batch.append(record)
                    case .issue(let issue):
                        summary.skip(issue)
                        position = issue.position
                    }
                }
                if !batch.isEmpty {
                    try await store(batch, plan: plan, linking: linkPlan, in: context, summary: &summary)
                }
                current.withLock { $0 = summary }
                reportProgress(completed: summary.recordsRead, of: source.expectedRecordCount,
                               message: "\(summary.batchesSaved) batches saved: \(summary.inserted) inserted, \(summary.updated) updated")
            }
        } catch {
            current.withLock { $0 = summary }
            if isCancelled { throw error }  // reported as cancelled; `summary` says how far it got
            throw ImportOperationError(summary: summary, position: position, underlying: error)
        }
        return summary
    }

    /// Checks, writes and resets one batch; adds its counts once it is saved.
    private func store(_ records: [ImportRecord], plan: ImportPlan, linking linkPlan: Link.Plan?,
                       in context: isolated ObjectContext, summary: inout ImportSummary) async throws {
        var rows: [ImportPlan.Row] = []
        rows.reserveCapacity(records.count)
        for record in records {
            switch try plan.check(record) {
            case .row(let row): rows.append(row)
            case .skipped(let issue): summary.skip(issue)
            }
        }
        if !rows.isEmpty {
            let graph = context.graph
            let batch = ImportBatch(plan: plan, rows: rows, author: graph.name, origin: graph.origin)
            let hub = context.hub
            let flag = context.interruptFlag
            // The rows and their links in one transaction: a row is never saved without the link that says who read it.
            let write: @Sendable (any StoreWriter) throws -> (ImportBatch.Result, ChangeSet?) = { writer in
                let result = try writer.write(batch, hub: hub)
                guard let linkPlan, !result.met.isEmpty else { return (result, nil) }
                let links = try linkPlan.batch(linking: result.met, author: batch.author, origin: batch.origin)
                return (result, try writer.write(links, hub: hub).changeSet)
            }
            let (result, linkChangeSet): (ImportBatch.Result, ChangeSet?)
            if context.isViewContext {
                (result, linkChangeSet) = try await context.store.writingAsync(interruptedBy: flag, write)
            } else {
                // A background context's queue may block on the writer: that is what it is for.
                (result, linkChangeSet) = try context.store.writing(interruptedBy: flag, write)
            }
            if result.lookedUp { keyLookups.add(1, ordering: .relaxed) }
            for issue in result.skipped { summary.skip(issue) }
            for changeSet in [result.changeSet, linkChangeSet].compactMap({ $0 }) {
                // Objects this context holds catch up; the operation finishes once live contexts merged it too.
                try graph.merge(changeSet)
                mergeBeforeFinishing(changeSet)
            }
            context.reset()
            countByLink(result.met)
            summary.inserted += result.inserted
            summary.updated += result.updated
            summary.unchanged += result.unchanged
        }
        summary.batchesSaved += 1
        summary.recordsSaved = summary.recordsRead
    }

    /// Adds what a saved batch did to the rows of records that named an object to ``summariesByLink``.
    private func countByLink(_ met: [ImportBatch.MetRow]) {
        guard met.contains(where: { $0.link != nil }) else { return }
        currentByLink.withLock { summaries in
            for row in met {
                guard let link = row.link else { continue }
                switch row.change {
                case .inserted: summaries[link, default: ImportSummary()].inserted += 1
                case .updated: summaries[link, default: ImportSummary()].updated += 1
                case .unchanged: summaries[link, default: ImportSummary()].unchanged += 1
                }
            }
        }
    }
}
