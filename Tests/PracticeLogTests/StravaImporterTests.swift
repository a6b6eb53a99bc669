import Foundation
import Testing
@testable import PracticeLog

@Suite("Strava importer")
struct StravaImporterTests {
    static let fixture = "strava-activities.csv"

    @Test("imports yoga, pilates and workouts named as practice, in UTC; counts the other activities")
    func records() throws {
        let reader = try StravaImporter().makeRecordReader(url: ImportFixtures.url(Self.fixture))
        let result = try ImportFixtures.drain(reader)
        #expect(result.recordLines == [2, 4, 8])
        #expect(result.records.map(\.kind) == ["yoga", "meditation", "pilates"])
        #expect(result.records.map(\.start) == ["2023-01-05T07:12:34Z", "2023-01-06T23:30:00Z", "2023-01-10T06:30:00Z"]
            .map(ImportFixtures.instant))
        // The first `Elapsed Time` column, in seconds.
        #expect(result.records.map(\.duration) == [3_600, 1_200, 2_700])
        #expect(result.records.map(\.note) == ["Morning Yoga", "Evening meditation", "Pilates class"])
        #expect(result.records.allSatisfy { $0.source == "strava" && $0.timeZone == nil })
        #expect(result.issues.map(\.description) == ["line 7: Activity Date 'Jan 9, 2023, 25:00:00 AM' is not like 'Jan 5, 2023, 7:12:34 AM'"])
        #expect(reader.notPractice == ["Run": 1, "Workout": 1, "Ride": 1])
        #expect(reader.timeRule?.hasPrefix("Strava times are in UTC") == true)
        #expect(result.records[0].key == "strava|1672902754|1672906354")
    }

    @Test("a zone given is carried by the sessions; the instants stay UTC")
    func timeZone() throws {
        let berlin = try #require(TimeZone(identifier: "Europe/Berlin"))
        let result = try ImportFixtures.read(Self.fixture, with: StravaImporter(timeZone: berlin))
        #expect(result.records.first?.start == ImportFixtures.instant("2023-01-05T07:12:34Z"))
        #expect(result.records.allSatisfy { $0.timeZone == "Europe/Berlin" })
    }

    @Test("a file without the columns is a format error")
    func wrongHeader() throws {
        let error = try #require(throws: ImportFormatError.self) {
            try StravaImporter().makeRecordReader(url: ImportFixtures.url("garmin-activities.csv"))
        }
        #expect(error.errorDescription?.contains("no column 'Activity Date'") == true)
    }
}
