import Foundation
@testable import PracticeLog
import Testing

@Suite("ZoneOffsets")
struct ZoneOffsetsTests {
    /// Zones with clock changes (half an hour on Lord Howe), changes of standard time (Moscow 2011 and 2014,
    /// Samoa skipping a day in 2011), and none.
    static let zones = ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Europe/Moscow", "Pacific/Apia",
                        "Asia/Kolkata", "America/Sao_Paulo", "Etc/UTC", "Africa/Casablanca"]

    @Test(arguments: zones)
    func everyOffsetIsTheZonesOwn(_ identifier: String) throws {
        let zone = try #require(TimeZone(identifier: identifier))
        var offsets = ZoneOffsets(zone)
        var generator = SeededGenerator(seed: 3)
        // In order, as a store's rows mostly come, then in any order, around the transitions too.
        var instants = (0..<3_000).map { Double($0) * 4 * 3_600 + 1_262_304_000 }  // from 2010, 4 h apart
        instants += (0..<3_000).map { _ in Double(Int.random(in: 0...2_000_000_000, using: &generator)) + 0.5 }
        var transition = Date(timeIntervalSince1970: 1_262_304_000)
        for _ in 0..<40 {
            guard let next = zone.nextDaylightSavingTimeTransition(after: transition) else { break }
            instants += [-1, -0.001, 0, 0.001, 1].map { next.timeIntervalSince1970 + $0 }
            transition = next
        }
        for seconds in instants {
            let expected = Double(zone.secondsFromGMT(for: Date(timeIntervalSince1970: seconds)))
            #expect(offsets.offset(at: seconds) == expected, "\(identifier) at \(seconds)")
        }
        #expect(offsets.localSeconds(of: .infinity) == .infinity)
        #expect(offsets.localSeconds(of: 1e15) == 1e15)
    }

    /// Offsets shared by a process start from what an earlier report learned of the zone (no call into the zone
    /// database for the stretches known), and still give exactly the zone's own offsets, in any order.
    @Test(arguments: zones)
    func sharedOffsetsStartFromWhatTheProcessLearned(_ identifier: String) throws {
        let zone = try #require(TimeZone(identifier: identifier))
        var first = try #require(ZoneOffsets.shared(identifier: identifier))
        for day in 0..<3_000 { _ = first.offset(at: 1_262_304_000 + Double(day) * 86_400) }
        first.remember()
        var second = try #require(ZoneOffsets.shared(identifier: identifier))
        #expect(second.knownStretches >= first.knownStretches && first.knownStretches > 0)
        var generator = SeededGenerator(seed: 5)
        let instants = (0..<2_000).map { _ in Double(Int.random(in: 0...2_000_000_000, using: &generator)) + 0.5 }
        for seconds in instants {
            #expect(second.offset(at: seconds) == Double(zone.secondsFromGMT(for: Date(timeIntervalSince1970: seconds))), "\(identifier) at \(seconds)")
        }
        // Offsets that know fewer stretches do not replace what is kept.
        ZoneOffsets(zone).remember()
        #expect((ZoneOffsets.shared(identifier: identifier)?.knownStretches ?? 0) >= first.knownStretches)
        #expect(ZoneOffsets.shared(identifier: "Nowhere/Atlantis") == nil)
    }
}
