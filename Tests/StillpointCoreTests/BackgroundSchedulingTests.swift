#if os(Linux)
import Glibc
import Testing
@testable import StillpointCore

@Suite("Background scheduling")
struct BackgroundSchedulingTests {
    private static func niceAndPolicy() -> (nice: Int32, policy: Int32) {
        (getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0), sched_getscheduler(0))
    }

    @Test func aJobRunsLoweredAndItsThreadComesBackAsItWas() {
        let before = Self.niceAndPolicy()
        var during = before
        BackgroundScheduling.run { during = Self.niceAndPolicy() }
        #expect(Self.niceAndPolicy() == before)
        switch BackgroundScheduling.mode {
        case .lowerPriority: #expect(during.nice > before.nice || before.nice == 19)
        case .batchPolicy: #expect(during.policy == 3)  // SCHED_BATCH
        case .unchanged: #expect(during == before)
        }
    }

    @Test(arguments: TestStore.all) func backgroundContextsRunTheirWorkLowered(store: TestStore) async throws {
        let container = try await makeContainer(store)
        let during = await container.newBackgroundContext().perform { _ in Self.niceAndPolicy() }
        if BackgroundScheduling.mode == .lowerPriority { #expect(during.nice >= 10) }
        if BackgroundScheduling.mode == .batchPolicy { #expect(during.policy == 3) }
    }
}
#endif
