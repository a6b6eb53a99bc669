import Foundation
import PracticeLog
import StillpointCore
import StillpointTestSupport
import Testing

/// A practitioner's home time zone reads an import's times written without a zone when the import gives none, for
/// one practitioner and for each row of a practitioner column; a zone given to the import, or written in the file,
/// wins; on SQLite and PostgreSQL.
@Suite("SessionImport in a practitioner's home time zone")
struct SessionImportHomeTimeZoneTests {
    static let berlin = TimeZone(identifier: "Europe/Berlin")!

    /// 2024-03-01 07:00 as a clock in Berlin showed it (UTC+1 in winter): 06:00 UTC.
    static let sevenInBerlin = Date(timeIntervalSince1970: 1_709_272_800)
    /// 2024-03-01 07:00 read as UTC: the wall-clock rule.
    static let sevenAsWritten = Date(timeIntervalSince1970: 1_709_276_400)

    /// Each session of `practitioner`: its start and zone, in start order.
    static func sessions(of practitioner: String, in container: PersistentContainer) async throws -> [(start: Date, zone: String?)] {
        try await container.newBackgroundContext().perform { context in
            var request = FetchRequest(Session.self, predicate: try FetchPredicate("practitioner.id == %@", practitioner))
            request.sortKeys = [.ascending(Session.start.name)]
            return try context.fetch(request).map { ($0[Session.start], $0[Session.timeZone]) }
        }
    }

    @Test(arguments: PracticeStore.all)
    func aPractitionersHomeZoneReadsTimesWithoutOne(store: PracticeStore) async throws {
        let container = try store.open(try store.makePlace(), schema: Session.schema)
        defer { try? container.close() }
        try await Practitioners.add("alice", timeZone: "Europe/Berlin", in: container)
        try await Practitioners.add("bob", in: container)
        let url = try SessionImportTests.write("start,duration\n2024-03-01T07:00:00,600\n2024-03-02T07:00:00+09:00,600\n")

        let alices = try await SessionImport(file: url.path, importer: GenericCSVImporter()).open().run(into: container, practitioner: "alice")
        #expect(alices.homeTimeZones == ["alice": Self.berlin])
        let alice = try await Self.sessions(of: "alice", in: container)
        #expect(alice.first?.start == Self.sevenInBerlin)
        #expect(alice.first?.zone == "Europe/Berlin")
        // A time written with its offset is that instant whatever the home zone, as with --time-zone.
        #expect(alice.last?.start == Date(timeIntervalSince1970: 1_709_330_400))

        // bob has no home zone: the wall-clock rule.
        let bobs = try await SessionImport(file: url.path, importer: GenericCSVImporter()).open().run(into: container, practitioner: "bob")
        #expect(bobs.homeTimeZones.isEmpty)
        let bob = try await Self.sessions(of: "bob", in: container)
        #expect(bob.first?.start == Self.sevenAsWritten)
        #expect(bob.first?.zone == "Etc/UTC")
    }

    @Test(arguments: PracticeStore.all)
    func aZoneGivenToTheImportWins(store: PracticeStore) async throws {
        let container = try store.open(try store.makePlace(), schema: Session.schema)
        defer { try? container.close() }
        try await Practitioners.add("alice", timeZone: "Europe/Berlin", in: container)
        let url = try SessionImportTests.write("Started At,Duration,Preset,Activity\n03/01/2024 07:00:00,0:10:0,,PracticeType.Meditation\n")
        let tokyo = InsightTimerImporter(timeZone: TimeZone(identifier: "Asia/Tokyo"))
        let result = try await SessionImport(file: url.path, importer: tokyo).open().run(into: container, practitioner: "alice")
        #expect(result.homeTimeZones.isEmpty)
        let alice = try await Self.sessions(of: "alice", in: container)
        #expect(alice.first?.zone == "Asia/Tokyo")
        #expect(alice.first?.start == Date(timeIntervalSince1970: 1_709_244_000))

        // Without one, Insight Timer's wall-clock times are read in her home zone, and the session keeps its key
        // (keyed on the time as written): the same session, corrected in place.
        let again = try await SessionImport(file: url.path, importer: InsightTimerImporter()).open().run(into: container, practitioner: "alice")
        #expect(again.homeTimeZones == ["alice": Self.berlin])
        #expect(again.summary.updated == 1)
        let corrected = try await Self.sessions(of: "alice", in: container)
        #expect(corrected.map(\.start) == [Self.sevenInBerlin])
        #expect(corrected.first?.zone == "Europe/Berlin")
    }

    @Test(arguments: PracticeStore.all)
    func eachRowOfAPractitionerColumnIsReadInItsPractitionersZone(store: PracticeStore) async throws {
        let container = try store.open(try store.makePlace(), schema: Session.schema)
        defer { try? container.close() }
        try await Practitioners.add("alice", timeZone: "Europe/Berlin", in: container)
        let url = try SessionImportTests.write("user,start,duration\nalice,2024-03-01T07:00:00,600\nbob,2024-03-01T07:00:00,600\n")
        let importer = GenericCSVImporter(startColumn: "start", duration: .seconds("duration"), practitionerColumn: "user")
        let result = try await SessionImport(file: url.path, importer: importer).open().run(into: container)
        #expect(result.homeTimeZones == ["alice": Self.berlin])
        #expect(try await Self.sessions(of: "alice", in: container).map(\.start) == [Self.sevenInBerlin])
        let bob = try await Self.sessions(of: "bob", in: container)
        #expect(bob.map(\.start) == [Self.sevenAsWritten])
        #expect(bob.first?.zone == "Etc/UTC")

        // A date format without a zone field is read in the home zone the same way.
        let formatted = try SessionImportTests.write("user,start,duration\nalice,01.03.2024 08:00,600\n")
        let withFormat = GenericCSVImporter(startColumn: "start", duration: .seconds("duration"), dateFormat: "dd.MM.yyyy HH:mm",
                                            practitionerColumn: "user")
        _ = try await SessionImport(file: formatted.path, importer: withFormat).open().run(into: container)
        #expect(try await Self.sessions(of: "alice", in: container).map(\.start)
                == [Self.sevenInBerlin, Self.sevenInBerlin.addingTimeInterval(3_600)])
    }
}
