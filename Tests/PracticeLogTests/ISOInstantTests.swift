import Foundation
import PracticeLog
import Testing

@Suite("ISOInstant")
struct ISOInstantTests {
    @Test(arguments: [
        ("2024-03-15T12:00:00Z", 1_710_504_000.0),
        ("2024-03-15T13:00:00+01:00", 1_710_504_000),
        ("2024-03-15T07:00:00-0500", 1_710_504_000),
        ("2024-03-15T14:00+02", 1_710_504_000),
        ("2024-03-15t12:00:00z", 1_710_504_000),
        ("2024-03-15T12:00:00.250Z", 1_710_504_000.25),
        ("2024-03-15", 1_710_460_800),
        ("2024-02-29T23:59:59Z", 1_709_251_199),
        ("1969-12-31T23:59:59Z", -1),
        ("2024-03-15T12:00:00+14:00", 1_710_453_600),
    ])
    func readsInstantsThatExist(text: String, seconds: Double) {
        #expect(ISOInstant.parse(text)?.timeIntervalSince1970 == seconds)
    }

    /// Foundation's parser rolls these over (2024-02-30 becomes 1 March); they are refused.
    @Test(arguments: [
        "2024-02-30", "2023-02-29", "2024-13-01", "2024-00-10", "2024-04-31", "2024-03-00",
        "2024-03-15T24:00:00Z", "2024-03-15T25:00:00Z", "2024-03-15T12:60:00Z", "2024-03-15T12:00:60Z",
        "2024-03-15T12:00:00+15:00", "2024-03-15T12:00:00-14:30", "2024-03-15T12:00:00+01:60",
        "2024-03-15T12:00:00", "2024-03-15 12:00:00Z", "2024-3-15", "15/03/2024", "", "now",
        "2024-03-15T12:00:00Zjunk", "2024-03-15T12:00:00.Z", "2024-03-15T1:00:00Z", "+2024-03-15",
    ])
    func refusesEverythingElse(text: String) {
        #expect(ISOInstant.parse(text) == nil)
    }
}
