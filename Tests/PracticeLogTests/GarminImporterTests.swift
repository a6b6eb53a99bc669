import Foundation
import Testing
@testable import PracticeLog

@Suite("Garmin Connect importer")
struct GarminImporterTests {
    static let fixture = "garmin-activities.csv"

    @Test("imports yoga, breathwork and meditation rows as wall-clock times, and counts the other activities")
    func records() throws {
        let importer = GarminImporter()
        let reader = try importer.makeRecordReader(url: ImportFixtures.url(Self.fixture))
        let result = try ImportFixtures.drain(reader)
        #expect(result.recordLines == [2, 4, 5, 9])
        #expect(result.records.map(\.kind) == ["yoga", "breathwork", "meditation", "yoga"])
        #expect(result.records.map(\.start) == ["2024-03-10T07:00:00Z", "2024-03-09T21:30:00Z", "2024-03-09T06:45:00Z",
                                                 "2024-03-05T23:30:00Z"].map(ImportFixtures.instant))
        #expect(result.records.map(\.duration) == [2_700, 600.3, 1_200, 3_600])
        #expect(result.records.map(\.note) == ["Morning Yoga", "Breathwork", "Meditation, quiet", "Yin Yoga"])
        #expect(result.records.allSatisfy { $0.source == "garmin_connect" && $0.timeZone == "Etc/UTC" })
        #expect(result.issues.map(\.description) == ["line 8: Time '--' is not HH:mm:ss"])
        #expect(reader.notPractice == ["Running": 2, "Cycling": 1])
        #expect(reader.timeRule?.hasPrefix("Garmin Connect times carry no zone") == true)
    }

    @Test("a zone given stores true instants and keeps the keys")
    func timeZone() throws {
        let losAngeles = try #require(TimeZone(identifier: "America/Los_Angeles"))
        let zoned = try ImportFixtures.read(Self.fixture, with: GarminImporter(timeZone: losAngeles))
        #expect(zoned.records.first?.start == ImportFixtures.instant("2024-03-10T14:00:00Z"))   // PDT, after the change
        #expect(zoned.records.first?.timeZone == "America/Los_Angeles")
        #expect(zoned.records.map(\.key) == (try ImportFixtures.read(Self.fixture, with: .garmin)).records.map(\.key))
    }

    @Test("Time with a fraction of a second, or without one")
    func durations() {
        #expect(ActivityListEventSource.garminDuration("00:45:00") == 2_700)
        #expect(ActivityListEventSource.garminDuration("01:02:03.5") == 3_723.5)
        #expect(ActivityListEventSource.garminDuration("--") == nil)
        #expect(ActivityListEventSource.garminDuration("00:45:00.") == nil)
        #expect(ActivityListEventSource.garminDuration("00:45:00.x") == nil)
    }

    @Test("a file without the columns is a format error naming the one missing")
    func wrongHeader() throws {
        let error = try #require(throws: ImportFormatError.self) {
            try GarminImporter().makeRecordReader(url: ImportFixtures.url("strava-activities.csv"))
        }
        #expect(error.errorDescription?.contains("is not a Garmin Connect activity list") == true)
        #expect(error.errorDescription?.contains("no column 'Date'") == true)
    }
}
