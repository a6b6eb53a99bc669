import Foundation
import StillpointCore
import Testing

// The examples of the Live Fetched Results article (StillpointCore.docc/LiveFetchedResults.md), compiled here against the public
// API; a test checks that every example of the article is in this file, line for line.

enum Sitting: Entity {
    static let start = Attribute<Date>("start")
    static let minutes = Attribute<Int>("minutes")
    static let kind = Attribute<String>("kind", default: "zazen")
    static let entity = EntityDescription("Sitting", attributes: [start, minutes, kind])
}

private func followLatest(_ container: PersistentContainer) async throws {
    let view = container.viewContext
    await view.setAutomaticallyMergesChangesFromParent(true)
    let request = FetchRequest(Sitting.self, sortedBy: [.descending(Sitting.start)], limit: 20)
    let latest = try await view.liveResults(for: request)
    for await snapshot in latest {
        print("generation \(snapshot.generation): \(snapshot.count) sittings")
        for row in snapshot.rows {
            print(row[Sitting.start] ?? .distantPast, row[Sitting.minutes] ?? 0)
        }
    }
}

private func sittingsByKind(_ context: ObjectContext) async throws -> LiveResults {
    let byKind = FetchRequest(Sitting.self, sortedBy: [.ascending(Sitting.kind), .descending(Sitting.start)])
    let results = try await context.liveResults(for: byKind, sectionedBy: "kind")
    for section in results.latest.sections {
        print(section.name, section.count)
    }
    return results
}

func apply(_ snapshot: LiveSnapshot, to sections: inout [[ObjectID]]) {
    let difference = snapshot.difference
    for position in (difference.deleted + difference.moved.map(\.from)).sorted(by: >) {
        sections[position.section].remove(at: position.item)
    }
    for section in difference.deletedSections.sorted(by: >) { sections.remove(at: section) }
    for section in difference.insertedSections.sorted() { sections.insert([], at: section) }
    for position in (difference.inserted + difference.moved.map(\.to)).sorted() {
        sections[position.section].insert(snapshot[position].objectID, at: position.item)
    }
}

private func followAnotherProcess(_ container: PersistentContainer) async throws {
    let view = container.viewContext
    await view.setAutomaticallyMergesChangesFromParent(true)
    let watcher = container.observeOtherProcesses(every: .milliseconds(250))
    defer { watcher.cancel() }
    let latest = try await view.liveResults(for: FetchRequest(Sitting.self, sortedBy: [.descending(Sitting.start)], limit: 20))
    for await snapshot in latest {
        print(snapshot.rows.map { row in row[Sitting.minutes] ?? 0 })
    }
}

@Suite("Live results article")
struct LiveResultsArticleTests {
    @Test func everyExampleOfTheArticleIsCompiledHere() throws {
        let (blocks, missing) = try ArticleExamples.blocks(of: "LiveFetchedResults.md", missingFrom: #filePath)
        #expect(blocks.count >= 5)
        #expect(missing.isEmpty, "examples of LiveFetchedResults.md not compiled in this file:\n\(missing.joined(separator: "\n"))")
    }

    @Test(arguments: TestStore.all) func applyingEachDifferenceKeepsAListOfSectionsInStep(store: TestStore) async throws {
        let container = try await makeContainer(store, entities: [Sitting.self])
        let context = container.newBackgroundContext()
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        try await context.perform { context in
            for (offset, kind) in ["zazen", "kinhin", "zazen", "walking"].enumerated() {
                let sitting = context.insert(Sitting.self)
                sitting[Sitting.start] = start.addingTimeInterval(Double(offset) * 3_600)
                sitting[Sitting.minutes] = 20 + offset
                sitting[Sitting.kind] = kind
            }
            try await context.save()
        }
        let results = try await sittingsByKind(context)
        var sections = results.latest.sections.map { section in results.latest.rows(in: section).map(\.objectID) }
        let edits: [@Sendable (isolated ObjectContext) throws -> Void] = [
            { context in
                let sitting = context.insert(Sitting.self)
                sitting[Sitting.start] = start.addingTimeInterval(36_000)
                sitting[Sitting.minutes] = 15
                sitting[Sitting.kind] = "chanting"
            },
            { context in
                for sitting in try context.fetch(FetchRequest(Sitting.self, predicate: Sitting.kind == "walking")) {
                    sitting[Sitting.kind] = "zazen"
                }
            },
            { context in
                for sitting in try context.fetch(FetchRequest(Sitting.self, predicate: Sitting.kind == "kinhin")) {
                    try context.delete(sitting)
                }
            },
        ]
        for (index, edit) in edits.enumerated() {
            try await context.perform { context in
                try edit(context)
                try await context.save()
            }
            let snapshot = results.latest
            #expect(snapshot.generation == index + 1)
            apply(snapshot, to: &sections)
            #expect(sections == snapshot.sections.map { section in snapshot.rows(in: section).map(\.objectID) })
        }
        #expect(results.latest.sections.map(\.name) == ["chanting", "zazen"])
        await results.stop()
    }

    @Test func theFollowingLoopsEndWhenTheirTaskIsCancelled() async throws {
        let container = try await makeContainer(.sqliteMemory, entities: [Sitting.self])
        let loops = [Task { try await followLatest(container) }, Task { try await followAnotherProcess(container) }]
        try await Task.sleep(for: .milliseconds(50))
        for loop in loops { loop.cancel() }
        for loop in loops { try await loop.value }
    }
}
