import Foundation
import Testing
import StillpointStatistics

@Suite("ExampleSession")
struct ExampleSessionTests {
    /// A module's example with a start that is not ISO 8601 used to stop the process when the module declared it;
    /// now running the example (as the conformance check does) fails and names the start.
    @Test func anUnreadableStartFailsTheExampleNotTheProcess() async throws {
        let session = ExampleSession("14 March 2024", minutes: 20)
        #expect(session.unreadableStart == "14 March 2024")
        await #expect(throws: ExampleSessionError(start: "14 March 2024")) {
            _ = try await StatisticExample.store(holding: [ExampleSession("2024-03-14T08:00:00Z", minutes: 10), session])
        }
        #expect(ExampleSession("2024-03-14T08:00:00Z", minutes: 10).unreadableStart == nil)
    }
}
