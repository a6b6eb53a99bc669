import Foundation
import StillpointCore
import StillpointSQLite
import Testing

// The examples of the Migrations article (StillpointCore.docc/Migrations.md), compiled here; the versioned step
// runs on a store made by the schema before it.

private enum Renames {
    enum Session: Entity {
        static let duration = Attribute<Int>("duration", renamedFrom: "length")
        static let note = Attribute<String?>("note")
        static let entity = EntityDescription("Session", attributes: [duration, note], renamedFrom: "Sitting")
    }
}

private enum Conversions {
    enum Session: Entity {
        static let duration = Attribute<Double>("duration", conversion: .integerToDouble)
        static let level = Attribute<Int>("level", conversion: AttributeConversion(from: .string, name: "levelNames") { value in
            guard case .string(let text) = value else { return value }   // nulls stay null
            return .integer(text == "high" ? 2 : 1)
        })
        static let entity = EntityDescription("Session", attributes: [duration, level])
    }
}

private enum Versions {
    /// The session of version 1, which counted minutes.
    enum Before: Entity {
        static let minutes = Attribute<Int>("minutes")
        static let entity = EntityDescription("Session", attributes: [minutes])
    }

    enum Session: Entity {
        static let seconds = Attribute<Int>("seconds", default: 0)
        static let entity = EntityDescription("Session", attributes: [seconds])
    }

    static func schema() throws -> Schema {
        let schema = try Schema([Session.self], versions: [
            SchemaVersion(1),
            SchemaVersion(2) { migration in
                // `minutes` left the schema in version 2: its column and values are still there to read.
                for row in try migration.rows(of: "Session", columns: ["minutes"]) {
                    guard case .integer(let minutes) = row["minutes"] else { continue }
                    try migration.update("Session", id: row.id, ["seconds": .integer(minutes * 60)])
                }
            },
        ])
        return schema
    }
}

@Suite("Migrations article")
struct MigrationsArticleTests {
    @Test func theDeclarationsOfTheArticleMakeSchemas() throws {
        #expect(try Schema([Renames.Session.self]).entities.count == 1)
        #expect(try Schema([Conversions.Session.self]).entities.count == 1)
    }

    @Test func theVersionedStepFillsSecondsFromMinutes() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("practice.sqlite")
        let before = try PersistentContainer(schema: try Schema([Versions.Before.self], versions: [SchemaVersion(1)]), location: .file(url))
        try await before.performBackgroundTask { context in
            context.insert(Versions.Before.self)[Versions.Before.minutes] = 20
            try await context.save()
        }
        try before.close()

        let after = try PersistentContainer(schema: try Versions.schema(), location: .file(url))
        let seconds = try await after.performBackgroundTask { context in
            try context.fetch(FetchRequest(Versions.Session.self)).map { $0[Versions.Session.seconds] }
        }
        try after.close()
        #expect(seconds == [1_200])
    }
}
