import Foundation
import Synchronization
import Testing
@testable import StillpointCore
@testable import StillpointSQLite

/// Item records with uids `range`, titled "title N" (or `title(N)`).
private func itemRecords(_ range: ClosedRange<Int>, title: (Int) -> String = { "title \($0)" }) -> [ImportRecord] {
    range.map { ImportRecord(["uid": .integer(Int64($0)), "title": .string(title($0))], position: $0) }
}

/// A source that reads records, fails or waits where a test says, and reports issues of its own.
struct ScriptedSource: ImportRecordSource {
    enum Step: Sendable {
        case record(ImportRecord)
        case issue(ImportRecordIssue)
        case fail(TestFailure)
        case wait(Gate)
    }

    let steps: [Step]
    var index = 0

    mutating func next() throws -> ImportSourceElement? {
        while index < steps.count {
            defer { index += 1 }
            switch steps[index] {
            case .record(let record): return .record(record)
            case .issue(let issue): return .issue(issue)
            case .fail(let failure): throw failure
            case .wait(let gate): gate.wait()
            }
        }
        return nil
    }

    var expectedRecordCount: Int? { steps.count }
}

/// Two unique attributes: the import's key, and another that records may clash on.
private enum Badge: Entity {
    static let number = Attribute<Int>("number")
    static let code = Attribute<String>("code")
    static let note = Attribute<String?>("note")
    static let entity = EntityDescription("Badge", attributes: [number, code, note], indexes: [
        IndexDescription([number], isUnique: true), IndexDescription([code], isUnique: true),
    ])
}

@Suite("ImportOperation")
struct ImportOperationTests {
    private func run(_ operation: ImportOperation, in container: PersistentContainer) async throws -> ImportSummary {
        let queue = ContextOperationQueue(container: container)
        queue.addOperation(operation)
        return try await operation.value
    }

    private func titles(in container: PersistentContainer) async throws -> [Int32: String] {
        try await container.newBackgroundContext().perform { context in
            Dictionary(uniqueKeysWithValues: try context.fetch(FetchRequest(Item.self)).map { ($0[Item.uid], $0[Item.title]) })
        }
    }

    @Test(arguments: TestStore.all) func insertsNewRecordsAndUpdatesExistingOnesByKey(store: TestStore) async throws {
        let container = try await makeContainer(store)
        try await insertItems(1...3, in: container)  // titled "item N"
        let records = [
            ImportRecord(["uid": .integer(2), "title": .string("renamed")]),
            ImportRecord(["uid": .integer(3), "title": .string("item 3")]),
            ImportRecord(["uid": .integer(4), "title": .string("new"), "score": .integer(7)]),
            ImportRecord(["uid": .integer(5)]),
        ]
        let summary = try await run(ImportOperation(entity: Item.entity, records: records), in: container)
        #expect(summary.recordsRead == 4)
        #expect(summary.inserted == 2)
        #expect(summary.updated == 1)
        #expect(summary.unchanged == 1)
        #expect(summary.skipped == 0)
        #expect(try await titles(in: container) == [1: "item 1", 2: "renamed", 3: "item 3", 4: "new", 5: ""])
        let score = try await container.newBackgroundContext().perform { context in
            try context.fetch(FetchRequest(Item.self, predicate: try FetchPredicate("uid == 4"))).first?[Item.score]
        }
        #expect(score == 7)  // an integer for a double attribute is stored as a double
    }

    @Test(arguments: TestStore.all) func looksUpKeysAtMostOncePerBatchAndSavesEachBatch(store: TestStore) async throws {
        let container = try await makeContainer(store)
        try await insertItems(1...5, in: container)
        var changeSets = container.changeSets.makeAsyncIterator()
        let operation = ImportOperation(entity: Item.entity, key: ["uid"], batchSize: 10, records: itemRecords(1...25))
        let summary = try await run(operation, in: container)
        // `uid` has a unique index: new records go in without a look-up, and only the first batch meets
        // existing keys.
        #expect(operation.keyLookups.load(ordering: .relaxed) == 1)
        #expect(summary.batchesSaved == 3)
        #expect(summary.recordsSaved == 25)
        #expect(summary.inserted == 20)
        #expect(summary.updated == 5)
        var sizes: [Int] = []
        for _ in 0..<3 {
            let changeSet = try #require(await changeSets.next())
            sizes.append(changeSet.inserted.count + changeSet.updated.count)
        }
        #expect(sizes == [10, 10, 5])
        #expect(operation.progress.completedUnitCount == 25)
        #expect(operation.progress.totalUnitCount == 25)
    }

    @Test(arguments: TestStore.all) func aKeyWithoutAUniqueIndexIsLookedUpOncePerBatch(store: TestStore) async throws {
        let container = try await makeContainer(store)
        try insertRows(5, in: container)  // a 1...5, b a % 7, c a % 13
        let records = (1...25).map { ImportRecord(["a": .integer(Int64($0)), "b": .integer(0), "c": .integer(Int64($0) % 13)]) }
        let operation = ImportOperation(entity: Row3.entity, key: ["a"], batchSize: 10, records: records)
        let summary = try await run(operation, in: container)
        #expect(operation.keyLookups.load(ordering: .relaxed) == 3)
        #expect(summary.inserted == 20)
        #expect(summary.updated == 5)  // b was a % 7, now 0
        let rows = try await container.newBackgroundContext().perform { context in
            try context.fetch(FetchRequest(Row3.self, sortedBy: [.ascending(Row3.a)])).map { [$0[Row3.a], $0[Row3.b], $0[Row3.c]] }
        }
        #expect(rows == (1...25).map { [$0, 0, $0 % 13] })
    }

    @Test(arguments: TestStore.all) func theChangeSetSaysWhatWasInsertedAndWhatChanged(store: TestStore) async throws {
        let container = try await makeContainer(store)
        let initial = try container.currentHistoryToken()
        try await insertItems(1...3, in: container)
        let ids = try await container.newBackgroundContext().perform { context in
            Dictionary(uniqueKeysWithValues: try context.fetch(FetchRequest(Item.self)).map { ($0[Item.uid], $0.objectID) })
        }
        var changeSets = container.changeSets.makeAsyncIterator()
        let start = try await container.history(after: initial, reaching: 1).token  // past the inserts
        let records = [
            ImportRecord(["uid": .integer(1), "title": .string("item 1")]),  // unchanged
            ImportRecord(["uid": .integer(2), "score": .double(9)]),  // changed
            ImportRecord(["uid": .integer(4), "title": .string("new")]),
        ]
        let summary = try await run(ImportOperation(entity: Item.entity, records: records), in: container)
        #expect((summary.inserted, summary.updated, summary.unchanged) == (1, 1, 1))
        let changeSet = try #require(await changeSets.next())
        #expect(changeSet.updated == [ids[2]!])
        #expect(changeSet.inserted.count == 1)
        #expect(changeSet.inserted.first.map { !ids.values.contains($0) } == true)
        #expect(changeSet.changedAttributes == ["Item": ["score"]])
        #expect(changeSet.deleted.isEmpty)
        // The same change is in the store's history, for other processes.
        #expect(try await container.history(after: start, reaching: 1).map(\.sequence) == [changeSet.sequence])
    }

    @MainActor
    @Test(arguments: TestStore.all) func finishesOnlyOnceTheViewContextHasMergedTheImport(store: TestStore) async throws {
        let container = try await makeContainer(store)
        try await insertItems(1...3, in: container)
        let view = container.viewContext
        await view.setAutomaticallyMergesChangesFromParent(true)
        let held = try view.performAndWait { try $0.fetch(FetchRequest(Item.self, predicate: try FetchPredicate("uid == 2")))[0].objectID }
        let records = [ImportRecord(["uid": .integer(2), "title": .string("renamed")]),
                       ImportRecord(["uid": .integer(9), "title": .string("nine")])]
        let queue = ContextOperationQueue(container: container)
        var events = queue.events.makeAsyncIterator()
        queue.addOperation(ImportOperation(entity: Item.entity, records: records))
        let end = await readEvents(&events, until: \.isEnd)
        #expect(end?.kindName == "finished")
        // Merged before the operation said it finished: no waiting here.
        #expect(view.performAndWait { $0.registeredObject(for: held)?[Item.title] } == "renamed")
        #expect(try view.performAndWait { try $0.count(for: FetchRequest(Item.self)) } == 4)
        await view.setAutomaticallyMergesChangesFromParent(false)
    }

    @Test(arguments: TestStore.all) func aRecordThatCannotBeInsertedAloneStillUpdatesAndKeepsItsOrder(store: TestStore) async throws {
        let container = try await makeContainer(store)
        let full: (Int64, String) -> ImportRecord = { integer, text in
            ImportRecord(["integer": .integer(integer), "double": .double(1), "string": .string(text), "bool": .bool(true),
                          "date": .date(Date(timeIntervalSince1970: 0)), "uuid": .uuid(UUID()), "binary": .binary(Data())])
        }
        _ = try await run(ImportOperation(entity: Kitchen.entity, key: ["integer"], records: [full(1, "one")]), in: container)
        let records = [
            ImportRecord(["integer": .integer(1), "string": .string("uno")], position: 1),  // exists: an update needs no more
            ImportRecord(["integer": .integer(2), "string": .string("dos")], position: 2),  // new, and lacks required values
            full(2, "two"),  // the same key, complete: inserted after the skipped one
            ImportRecord(["integer": .integer(2), "string": .string("deux")], position: 4),  // then updates it
        ]
        let summary = try await run(ImportOperation(entity: Kitchen.entity, key: ["integer"], records: records), in: container)
        #expect((summary.inserted, summary.updated, summary.skipped) == (1, 2, 1))
        #expect(summary.issues.map(\.position) == [2])
        let strings = try await container.newBackgroundContext().perform { context in
            try context.fetch(FetchRequest(Kitchen.self, sortedBy: [.ascending(Kitchen.integer)])).map { $0[Kitchen.string] }
        }
        #expect(strings == ["uno", "deux"])
    }

    @Test(arguments: TestStore.all) func withAUniqueKeyARecordThatCannotBeInsertedAloneKeepsItsPlaceAmongItsKey(store: TestStore) async throws {
        let container = try await makeContainer(store, entities: [Badge.self])
        let first = [ImportRecord(["number": .integer(1), "code": .string("one")])]
        _ = try await run(ImportOperation(entity: Badge.entity, key: ["number"], records: first), in: container)
        let records = [
            ImportRecord(["number": .integer(1), "note": .string("uno")], position: 1),  // exists: an update needs no code
            ImportRecord(["number": .integer(2), "note": .string("dos")], position: 2),  // new, and lacks its code
            ImportRecord(["number": .integer(2), "code": .string("two")], position: 3),  // inserted after the skipped one
            ImportRecord(["number": .integer(2), "note": .string("deux")], position: 4),  // then updates it
            ImportRecord(["number": .integer(3), "code": .string("three")], position: 5),  // new: no look-up needed
        ]
        let operation = ImportOperation(entity: Badge.entity, key: ["number"], records: records)
        let summary = try await run(operation, in: container)
        #expect((summary.inserted, summary.updated, summary.skipped) == (2, 2, 1))
        #expect(summary.issues.map(\.position) == [2])
        #expect(operation.keyLookups.load(ordering: .relaxed) == 1)
        let rows = try await container.newBackgroundContext().perform { context in
            try context.fetch(FetchRequest(Badge.self, sortedBy: [.ascending(Badge.number)])).map { "\($0[Badge.code]) \($0[Badge.note] ?? "-")" }
        }
        #expect(rows == ["one uno", "two deux", "three -"])
    }

    @Test(arguments: TestStore.all) func anotherUniqueAttributeThatClashesFailsTheBatchAndKeepsTheEarlierOnes(store: TestStore) async throws {
        let container = try await makeContainer(store, entities: [Badge.self])
        let records = (1...6).map { ImportRecord(["number": .integer(Int64($0)), "code": .string("code \($0 == 5 ? 1 : $0)")], position: $0) }
        let operation = ImportOperation(entity: Badge.entity, key: ["number"], batchSize: 3, records: records)
        await #expect(throws: ImportOperationError.self) { _ = try await run(operation, in: container) }
        guard case .failed(let error as ImportOperationError)? = operation.outcome,
              case .validation(let failures) = error.underlying as? SaveError else {
            Issue.record("expected a validation error, got \(String(describing: operation.outcome))")
            return
        }
        #expect(failures.count == 1)
        #expect(failures.first?.reason == .uniquenessViolation(attributes: ["code"], values: [.string("code 1")]))
        #expect(error.summary.batchesSaved == 1)
        #expect(error.summary.inserted == 3)
        let count = try await container.newBackgroundContext().perform { try $0.count(for: FetchRequest(Badge.self)) }
        #expect(count == 3)  // the failed batch wrote nothing
    }

    @Test(arguments: TestStore.all) func importingTheSameRecordsAgainChangesNothing(store: TestStore) async throws {
        let container = try await makeContainer(store)
        let dates = [Date(timeIntervalSince1970: 1_709_623_800.123_456), Date(timeIntervalSinceReferenceDate: 0.1),
                     Date(timeIntervalSince1970: 1e9 / 3), Date()]
        let records = (0..<40).map { index in
            ImportRecord([
                "integer": .integer(Int64(index)), "double": .integer(Int64(index)), "string": .string("row \(index)"),
                "bool": .bool(index.isMultiple(of: 2)), "date": .date(dates[index % dates.count]),
                "uuid": .uuid(UUID()), "binary": .binary(Data([UInt8(index)])), "note": .null,
            ])
        }
        let first = try await run(ImportOperation(entity: Kitchen.entity, key: ["integer"], batchSize: 16, records: records), in: container)
        #expect(first.inserted == 40)
        let entries = try container.changeLogEntryCount()
        let versions = try container.integer(#"SELECT SUM("_version") FROM "Kitchen""#)

        let again = try await run(ImportOperation(entity: Kitchen.entity, key: ["integer"], batchSize: 16, records: records), in: container)
        #expect(again.inserted == 0)
        #expect(again.updated == 0)
        #expect(again.unchanged == 40)
        #expect(try container.changeLogEntryCount() == entries)  // no save at all
        #expect(try container.integer(#"SELECT SUM("_version") FROM "Kitchen""#) == versions)
        #expect(try await container.newBackgroundContext().perform { try $0.count(for: FetchRequest(Kitchen.self)) } == 40)
    }

    @Test(arguments: TestStore.all) func aFailureKeepsTheSavedBatchesAndImportingAgainResumes(store: TestStore) async throws {
        let container = try await makeContainer(store)
        let records = itemRecords(1...30)
        let steps = records.prefix(25).map(ScriptedSource.Step.record) + [.fail(TestFailure(message: "disk gone"))]
        let queue = ContextOperationQueue(container: container)
        var events = queue.events.makeAsyncIterator()
        let failing = ImportOperation(entity: Item.entity, batchSize: 10) { ScriptedSource(steps: steps) }
        queue.addOperation(failing)
        let end = try #require(await readEvents(&events, until: \.isEnd))
        guard case .failed(let error as ImportOperationError) = end.kind else {
            Issue.record("expected an ImportOperationError, got \(end)")
            return
        }
        #expect(error.underlying as? TestFailure == TestFailure(message: "disk gone"))
        #expect(error.position == 25)
        #expect(error.summary.batchesSaved == 2)
        #expect(error.summary.recordsSaved == 20)
        #expect(error.summary.recordsRead == 25)
        #expect(error.summary.inserted == 20)
        #expect(failing.summary == error.summary)
        #expect(error.description.contains("20 records in 2 batches are saved"))
        #expect(try await titles(in: container).count == 20)

        let resumed = try await run(ImportOperation(entity: Item.entity, batchSize: 10, records: records), in: container)
        #expect(resumed.inserted == 10)
        #expect(resumed.unchanged == 20)
        #expect(try await titles(in: container).count == 30)
    }

    @Test(arguments: TestStore.all) func aCancelledImportKeepsTheSavedBatchesAndSaysHowFarItGot(store: TestStore) async throws {
        let container = try await makeContainer(store)
        let gate = Gate()
        let records = itemRecords(1...40)
        let steps = records.prefix(25).map(ScriptedSource.Step.record) + [.wait(gate)]
            + records.suffix(15).map(ScriptedSource.Step.record)
        let queue = ContextOperationQueue(container: container)
        var events = queue.events.makeAsyncIterator()
        let operation = ImportOperation(entity: Item.entity, batchSize: 10) { ScriptedSource(steps: steps) }
        queue.addOperation(operation)
        _ = await readEvents(&events) { event in
            if case .progress(let progress) = event.kind { return progress.completedUnitCount == 20 }
            return false
        }
        operation.cancel()  // while the source waits in the third batch
        gate.open()
        let end = try #require(await readEvents(&events, until: \.isEnd))
        #expect(end.kindName == "cancelled")
        #expect(operation.summary.batchesSaved == 2)
        #expect(operation.summary.recordsSaved == 20)
        #expect(try await titles(in: container).count == 20)
    }

    @Test(arguments: TestStore.all) func recordsThatDoNotFitAreSkippedWithTheirPositions(store: TestStore) async throws {
        let container = try await makeContainer(store)
        let steps: [ScriptedSource.Step] = [
            .record(ImportRecord(["uid": .integer(1), "title": .string("fine")], position: 1)),
            .issue(ImportRecordIssue(position: 2, reason: "the source could not read it")),
            .record(ImportRecord(["uid": .string("three")], position: 3)),
            .record(ImportRecord(["title": .string("no key")], position: 4)),
            .record(ImportRecord(["uid": .integer(5), "title": .null], position: 5)),
            .record(ImportRecord(["uid": .integer(6), "score": .null], position: 6)),
        ]
        let summary = try await run(ImportOperation(entity: Item.entity) { ScriptedSource(steps: steps) }, in: container)
        #expect(summary.recordsRead == 5)
        #expect(summary.inserted == 2)
        #expect(summary.skipped == 4)
        #expect(summary.issues.map(\.position) == [2, 3, 4, 5])
        #expect(summary.issues.map(\.description) == [
            "record 2: the source could not read it",
            "record 3: has \"three\" for 'uid', which is an integer attribute (-2147483648...2147483647)",
            "record 4: has no value for the key attribute 'uid'",
            "record 5: has no value for the required attribute 'title'",
        ])
    }

    @Test(arguments: TestStore.all) func anUnknownAttributeStopsTheImport(store: TestStore) async throws {
        let container = try await makeContainer(store)
        let operation = ImportOperation(entity: Item.entity, records: [ImportRecord(["uid": .integer(1), "titel": .string("x")])])
        await #expect(throws: ImportOperationError.self) { _ = try await run(operation, in: container) }
        guard case .failed(let error as ImportOperationError)? = operation.outcome, error.underlying is SchemaError else {
            Issue.record("expected a schema error, got \(String(describing: operation.outcome))")
            return
        }
    }

    @Test(arguments: TestStore.all) func aRepeatedKeyInOneBatchUpdatesTheSameObject(store: TestStore) async throws {
        let container = try await makeContainer(store)
        let records = [
            ImportRecord(["uid": .integer(1), "title": .string("first")]),
            ImportRecord(["uid": .integer(1), "title": .string("second")]),
        ]
        let summary = try await run(ImportOperation(entity: Item.entity, records: records), in: container)
        #expect(summary.inserted == 1)
        #expect(summary.updated == 1)
        #expect(try await titles(in: container) == [1: "second"])
    }

    @Test(arguments: TestStore.all) func aCompositeKeyMatchesOnEveryAttribute(store: TestStore) async throws {
        let container = try await makeContainer(store)
        try await container.performBackgroundTask { context in
            for (a, b) in [(1, 1), (1, 2), (2, 1)] {
                let row = context.insert(Row3.self)
                row[Row3.a] = a
                row[Row3.b] = b
                row[Row3.c] = 0
            }
            try await context.save()
        }
        let records = [
            ImportRecord(["a": .integer(1), "b": .integer(2), "c": .integer(9)]),
            ImportRecord(["a": .integer(2), "b": .integer(2), "c": .integer(5)]),  // (2, 2) is new, though 2 and 2 exist
        ]
        let summary = try await run(ImportOperation(entity: Row3.entity, key: ["a", "b"], records: records), in: container)
        #expect(summary.inserted == 1)
        #expect(summary.updated == 1)
        let rows = try await container.newBackgroundContext().perform { context in
            try context.fetch(FetchRequest(Row3.self, sortedBy: [.ascending(Row3.a), .ascending(Row3.b)]))
                .map { [$0[Row3.a], $0[Row3.b], $0[Row3.c]] }
        }
        #expect(rows == [[1, 1, 0], [1, 2, 9], [2, 1, 0], [2, 2, 5]])
    }

    @Test(arguments: TestStore.all) func memoryStaysFlatBecauseTheContextIsResetAfterEachBatch(store: TestStore) async throws {
        let container = try await makeContainer(store)
        let context = container.newBackgroundContext()
        let operation = ImportOperation(entity: Item.entity, batchSize: 10, records: itemRecords(1...55), context: context)
        let summary = try await run(operation, in: container)
        #expect(summary.inserted == 55)
        #expect(await context.perform { $0.registeredObjects.count } == 0)
    }
}
