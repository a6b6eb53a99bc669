import Testing
import PracticeLog

@Suite("Session sources")
struct SessionSourceTests {
    @Test("known sources have the names people know them by; others have none")
    func displayNames() {
        #expect(SessionSource.displayName(of: "insight_timer") == "Insight Timer")
        #expect(SessionSource.displayName(of: "meditation_helper") == "Meditation Helper")
        #expect(SessionSource.displayName(of: "garmin_connect") == "Garmin Connect")
        #expect(SessionSource.displayName(of: "strava") == "Strava")
        #expect(SessionSource.displayName(of: "csv") == "CSV")
        #expect(SessionSource.displayName(of: "Sam\u{2019}s Apple Watch") == nil)
    }
}
