import Foundation
import Testing
@testable import StillpointCore

@Suite("ContextOperationQueue")
struct ContextOperationQueueTests {
    @Test(arguments: TestStore.all) func theHighestPriorityStartsFirstThenTheEarliestEnqueued(store: TestStore) async throws {
        let queue = ContextOperationQueue(container: try await makeContainer(store), maxConcurrentOperationCount: 1)
        let order = Recorder<String>()
        queue.suspend()
        for (name, priority) in [("low", OperationPriority.low), ("normal-1", .normal), ("high", .high),
                                 ("normal-2", .normal), ("very-high", .veryHigh)] {
            queue.addOperation(identifier: name, priority: priority) { _, _ in order.append(name) }
        }
        #expect(queue.operations.map(\.identifier) == ["very-high", "high", "normal-1", "normal-2", "low"])
        queue.resume()
        await queue.waitUntilAllOperationsAreFinished()
        #expect(order.all == ["very-high", "high", "normal-1", "normal-2", "low"])
    }

    @Test(arguments: TestStore.all) func neverRunsMoreOperationsAtOnceThanItsLimit(store: TestStore) async throws {
        let queue = ContextOperationQueue(container: try await makeContainer(store), maxConcurrentOperationCount: 2)
        let gauge = ConcurrencyGauge()
        for index in 0..<8 {
            queue.addOperation(identifier: "work-\(index)") { _, _ in
                gauge.enter()
                defer { gauge.leave() }
                // The first two wait to see each other, so that the peak reaches the limit however slow the
                // machine; the rest do a little work, so that an unlimited queue would overlap them all.
                let deadline = ContinuousClock.now + .seconds(30)
                while index < 2, gauge.current < 2, ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(1))
                }
                try await Task.sleep(for: .milliseconds(5))
            }
        }
        #expect(queue.operations.filter(\.isExecuting).count == 2)
        await queue.waitUntilAllOperationsAreFinished()
        #expect(gauge.peak == 2)
        #expect(queue.operationCount == 0)
    }

    @Test(arguments: TestStore.all) func raisingTheLimitStartsWaitingOperations(store: TestStore) async throws {
        let queue = ContextOperationQueue(container: try await makeContainer(store), maxConcurrentOperationCount: 1)
        let gate = Gate()
        queue.addOperation(identifier: "blocker") { _, _ in gate.wait() }
        let second = queue.addOperation(identifier: "second") { _, _ in 2 }
        #expect(second.phase == .enqueued)
        queue.maxConcurrentOperationCount = 2
        #expect(try await second.value == 2)  // finished while the first still holds its slot
        gate.open()
        await queue.waitUntilAllOperationsAreFinished()
    }

    @Test(arguments: TestStore.all) func aSuspendedQueueStartsNothingUntilResumed(store: TestStore) async throws {
        let queue = ContextOperationQueue(container: try await makeContainer(store))
        var events = queue.events.makeAsyncIterator()
        queue.suspend()
        #expect(queue.isSuspended)
        let operations = (0..<3).map { index in queue.addOperation(identifier: "op-\(index)") { _, _ in index } }
        #expect(operations.filter { $0.phase == .enqueued }.count == 3)
        #expect(queue.operationCount == 3)
        queue.resume()
        await queue.waitUntilAllOperationsAreFinished()
        #expect(operations.filter(\.isFinished).count == 3)
        let trace = await readEvents(&events, untilEnded: 3).map(\.trace)
        // Nothing started before all three were enqueued, while the queue was suspended.
        #expect(Array(trace.prefix(3)) == ["op-0 enqueued", "op-1 enqueued", "op-2 enqueued"])
    }

    @Test(arguments: TestStore.all) func eventsComeInTheOrderThingsHappen(store: TestStore) async throws {
        let queue = ContextOperationQueue(container: try await makeContainer(store), maxConcurrentOperationCount: 1)
        var events = queue.events.makeAsyncIterator()
        let first = ContextOperation<Int>(identifier: "a") { _, operation in
            operation.reportProgress(completed: 1, of: 2)
            operation.reportProgress(completed: 2, of: 2)
            return 1
        }
        let second = ContextOperation<Int>(identifier: "b") { _, operation in try operation.result(of: first) + 1 }
        second.addDependency(first)
        queue.addOperations([first, second])
        let received = await readEvents(&events, untilEnded: 2)
        #expect(received.map(\.trace) == [
            "a enqueued", "b enqueued", "a started", "a progress", "a progress", "a finished", "b started", "b finished",
        ])
        #expect(received[5].result(of: first) == 1)
        #expect(received[7].result(of: second) == 2)
        #expect(received[7].result(of: first) == nil)
    }

    @Test(arguments: TestStore.all) func aFailureCancelsItsDependentsWithItsReason(store: TestStore) async throws {
        let queue = ContextOperationQueue(container: try await makeContainer(store), maxConcurrentOperationCount: 1)
        var events = queue.events.makeAsyncIterator()
        let ran = Recorder<String>()
        let load = ContextOperation<Int>(identifier: "load") { _, _ in throw TestFailure(message: "no file") }
        let summary = ContextOperation<Int>(identifier: "summary") { _, _ in ran.append("summary"); return 1 }
        let report = ContextOperation<Int>(identifier: "report") { _, _ in ran.append("report"); return 2 }
        let other = ContextOperation<Int>(identifier: "other") { _, _ in ran.append("other"); return 3 }
        summary.addDependency(load)
        report.addDependency(summary)
        queue.addOperations([load, summary, report, other])
        let trace = await readEvents(&events, untilEnded: 4).map(\.trace)
        #expect(trace == [
            "load enqueued", "summary enqueued", "report enqueued", "other enqueued",
            "load started", "load failed", "summary cancelled", "report cancelled", "other started", "other finished",
        ])
        #expect(ran.all == ["other"])
        guard case .cancelled(.dependencyFailed("load", let error))? = summary.outcome,
              case .cancelled(.dependencyCancelled("summary", let reason))? = report.outcome,
              case .dependencyFailed("load", _) = reason.rootCause else {
            Issue.record("unexpected outcomes: \(String(describing: summary.outcome)), \(String(describing: report.outcome))")
            return
        }
        #expect(error as? TestFailure == TestFailure(message: "no file"))
        await #expect(throws: TestFailure(message: "no file")) { try await load.value }
    }

    @Test(arguments: TestStore.all) func theRunDependentsPolicyRunsThemAnyway(store: TestStore) async throws {
        let queue = ContextOperationQueue(container: try await makeContainer(store), dependencyFailurePolicy: .runDependents)
        let load = ContextOperation<Int>(identifier: "load") { _, _ in throw TestFailure(message: "no file") }
        let fallback = ContextOperation<String>(identifier: "fallback") { _, operation in
            guard case .failed? = operation.outcome(of: load) else { return "unexpected" }
            do {
                _ = try operation.result(of: load)
                return "read a result"
            } catch ContextOperationError.dependencyUnavailable(let identifier, _) {
                return "ran without \(identifier)"
            }
        }
        fallback.addDependency(load)
        queue.addOperations([load, fallback])
        #expect(try await fallback.value == "ran without load")
    }

    @Test(arguments: TestStore.all) func anOperationsOwnPolicyOverridesTheQueues(store: TestStore) async throws {
        let queue = ContextOperationQueue(container: try await makeContainer(store), dependencyFailurePolicy: .runDependents)
        let load = ContextOperation<Int>(identifier: "load") { _, _ in throw TestFailure(message: "no file") }
        let strict = ContextOperation<Int>(identifier: "strict") { _, operation in try operation.result(of: load) }
        strict.dependencyFailurePolicy = .cancelDependents
        strict.addDependency(load)
        queue.addOperations([load, strict])
        await queue.waitUntilAllOperationsAreFinished()
        guard case .cancelled(.dependencyFailed("load", _))? = strict.outcome else {
            Issue.record("expected strict cancelled, got \(String(describing: strict.outcome))")
            return
        }
    }

    @Test(arguments: TestStore.all) func aCancelledDependencyCancelsItsDependents(store: TestStore) async throws {
        let queue = ContextOperationQueue(container: try await makeContainer(store))
        let first = ContextOperation<Int>(identifier: "first") { _, _ in 1 }
        let second = ContextOperation<Int>(identifier: "second") { _, _ in 2 }
        second.addDependency(first)
        first.cancel()
        queue.addOperations([first, second])
        await queue.waitUntilAllOperationsAreFinished()
        guard case .cancelled(.dependencyCancelled("first", .requested))? = second.outcome else {
            Issue.record("expected second cancelled, got \(String(describing: second.outcome))")
            return
        }
    }

    @Test(arguments: TestStore.all) func aDependencyCancelledOutsideAnyQueueCancelsItsDependents(store: TestStore) async throws {
        let queue = ContextOperationQueue(container: try await makeContainer(store))
        let never = ContextOperation<Int>(identifier: "never") { _, _ in 1 }
        let dependent = ContextOperation<Int>(identifier: "dependent") { _, _ in 2 }
        dependent.addDependency(never)
        queue.addOperation(dependent)
        #expect(dependent.phase == .enqueued)
        never.cancel()  // never enqueued anywhere: the dependent must not wait for it forever
        await queue.waitUntilAllOperationsAreFinished()
        guard case .cancelled(.dependencyCancelled("never", .requested))? = dependent.outcome else {
            Issue.record("expected dependent cancelled, got \(String(describing: dependent.outcome))")
            return
        }
    }

    @Test(arguments: TestStore.all) func dependenciesWorkAcrossQueues(store: TestStore) async throws {
        let container = try await makeContainer(store)
        let upstream = ContextOperationQueue(container: container, name: "upstream")
        let downstream = ContextOperationQueue(container: container, name: "downstream")
        upstream.suspend()
        let produce = ContextOperation<Int>(identifier: "produce") { _, _ in 20 }
        let consume = ContextOperation<Int>(identifier: "consume") { _, operation in try operation.result(of: produce) + 1 }
        consume.addDependency(produce)
        downstream.addOperation(consume)
        upstream.addOperation(produce)
        #expect(consume.phase == .enqueued)
        upstream.resume()
        #expect(try await consume.value == 21)
    }

    @Test(arguments: TestStore.all) func waitingForAnIdleQueueReturnsAtOnce(store: TestStore) async throws {
        let queue = ContextOperationQueue(container: try await makeContainer(store))
        await queue.waitUntilAllOperationsAreFinished()
        #expect(queue.operations.isEmpty)
    }

    @Test(arguments: TestStore.all) func operationsRunOffTheMainActorInFreshContexts(store: TestStore) async throws {
        let queue = ContextOperationQueue(container: try await makeContainer(store))
        let names = Recorder<String>()
        for index in 0..<2 {
            queue.addOperation(identifier: "fresh-\(index)") { context, _ in
                #expect(!context.isViewContext)
                names.append(context.name)
            }
        }
        await queue.waitUntilAllOperationsAreFinished()
        #expect(Set(names.all).count == 2)
    }
}
