import Foundation
import Testing
@testable import StillpointCore

/// Mistakes in setting operations up that the types cannot rule out fail the operation with
/// ``ContextOperationError/misused(identifier:reason:)``, where they used to stop the process.
@Suite("Operation misuse")
struct OperationMisuseTests {
    /// The reason `operation` was refused for, once its queue has run it.
    static func misuseReason<R>(of operation: ContextOperation<R>) async -> String? {
        do {
            _ = try await operation.value
            return nil
        } catch ContextOperationError.misused(let identifier, let reason) {
            #expect(identifier == operation.identifier)
            return reason
        } catch {
            Issue.record("expected a misuse, not \(error)")
            return nil
        }
    }

    static func counting(_ identifier: String, _ ran: Recorder<String>) -> ContextOperation<Int> {
        ContextOperation(identifier: identifier) { _, _ in
            ran.append(identifier)
            return 1
        }
    }

    @Test(arguments: TestStore.all) func dependenciesOnItselfInACycleOrAfterEnqueueingFailTheOperation(store: TestStore) async throws {
        let container = try await makeContainer(store)
        let queue = ContextOperationQueue(container: container)
        let ran = Recorder<String>()
        let selfish = Self.counting("selfish", ran)
        selfish.addDependency(selfish)
        let first = Self.counting("first", ran), second = Self.counting("second", ran)
        second.addDependency(first)
        first.addDependency(second)  // would close a cycle: not added
        let late = Self.counting("late", ran)
        queue.suspend()
        queue.addOperations([selfish, first, second, late])
        late.addDependency(first)
        queue.resume()
        #expect(await Self.misuseReason(of: selfish) == "it was made to depend on itself")
        #expect(await Self.misuseReason(of: first) == "'second' already depends on it, so depending on 'second' would never start")
        #expect(await Self.misuseReason(of: late) == "a dependency on 'first' was added after it was enqueued; add dependencies first")
        // `second` waited for `first`, which failed: the queue's policy cancels it, as for any failed dependency.
        await #expect(throws: ContextOperationError.self) { _ = try await second.value }
        #expect(ran.all.isEmpty)
        #expect(first.dependencies.isEmpty)
    }

    @Test(arguments: TestStore.all) func aContextOfAnotherContainerOrTheViewContextFailsTheOperation(store: TestStore) async throws {
        let container = try await makeContainer(store)
        let other = try await makeContainer(.sqliteMemory)
        let queue = ContextOperationQueue(container: container)
        let ran = Recorder<String>()
        let foreign = ContextOperation(identifier: "foreign", context: other.newBackgroundContext()) { _, _ in ran.append("foreign") }
        let onView = ContextOperation(identifier: "on view", context: container.viewContext) { _, _ in ran.append("on view") }
        queue.addOperations([foreign, onView])
        #expect(await Self.misuseReason(of: foreign)?.hasPrefix("its context belongs to another container") == true)
        #expect(await Self.misuseReason(of: onView)?.hasPrefix("an operation runs off the main actor") == true)
        #expect(ran.all.isEmpty)
    }

    @Test(arguments: TestStore.all) func anOperationAddedTwiceRunsOnce(store: TestStore) async throws {
        let container = try await makeContainer(store)
        let queue = ContextOperationQueue(container: container, maxConcurrentOperationCount: 0)
        let other = ContextOperationQueue(container: container)
        let ran = Recorder<String>()
        let once = Self.counting("once", ran)
        queue.addOperation(once)
        queue.addOperation(once)
        other.addOperation(once)
        #expect(try await once.value == 1)
        #expect(ran.all == ["once"])
        #expect(queue.maxConcurrentOperationCount == 1)
        queue.maxConcurrentOperationCount = -3
        #expect(queue.maxConcurrentOperationCount == 1)
    }

    @Test(arguments: TestStore.all) func anImportWithoutAKeyFails(store: TestStore) async throws {
        let container = try await makeContainer(store)
        let queue = ContextOperationQueue(container: container)
        let import_ = ImportOperation(entity: Row3.entity, batchSize: 0, records: [ImportRecord(["a": .integer(1)])])
        queue.addOperation(import_)
        #expect(await Self.misuseReason(of: import_) == "an import of Row3 needs a key: pass one, or give the entity a unique index")
        #expect(try container.integer("SELECT COUNT(*) FROM \"Row3\"") == 0)
    }

    @Test(arguments: TestStore.all) func aBlockAddedOnceTheOperationRunsFailsIt(store: TestStore) async throws {
        let container = try await makeContainer(store)
        let queue = ContextOperationQueue(container: container)
        let release = Gate()
        let blocks = ContextBlockOperation(identifier: "blocks", saveAfterExecution: false)
        blocks.addExecutionBlock { _ in
            release.wait()
            return false
        }
        queue.addOperation(blocks)
        while blocks.phase != .running { try await Task.sleep(for: .milliseconds(5)) }
        blocks.addExecutionBlock { _ in false }
        release.open()
        #expect(await Self.misuseReason(of: blocks) == "a block was added after it started; add blocks before")
    }

    @Test(arguments: TestStore.all) func anExportWithAQuoteForDelimiterFailsAndWritesNothing(store: TestStore) async throws {
        let container = try await makeContainer(store)
        try await insertItems([1], in: container)
        let url = try temporaryDirectory().appendingPathComponent("items.csv")
        let export = ExportOperation(FetchRequest(Item.self), format: .csv(delimiter: "\""), to: url)
        #expect(CSVExportFormat(delimiter: "\n").configurationProblem != nil)
        ContextOperationQueue(container: container).addOperation(export)
        #expect(await Self.misuseReason(of: export) == "a CSV delimiter cannot be a quote or a line break; choose another, such as ';' or a tab")
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }
}
