import PracticeLog
import StillpointStatistics
import Testing

@Suite struct StatisticValueTests {
    /// A report service holds every practitioner's values: a boxed quantity per field was an allocation each.
    @Test func quantitiesAndTextsAreHeldInPlaceAndOnlyADayIsBoxed() {
        #expect(MemoryLayout<StatisticValue>.size > MemoryLayout<Double>.size)
        #expect(MemoryLayout<StatisticValue>.stride <= 24)
        #expect(MemoryLayout<StatisticField>.stride <= 40)
    }

    @Test func valuesOfEveryFormCompareAndReadAsBefore() {
        let day = LocalDay(dayNumber: 20_000)
        let value = StatisticValue.list([
            .record([.init("day", .day(day)), .init("count", .quantity(2, .count)), .init("note", .text("calm"))]),
            .none,
        ])
        guard case .list(let items) = value else { Issue.record("not a list"); return }
        #expect(items[0]["day"] == .day(day))
        #expect(items[0]["count"] == .quantity(2, .count))
        #expect(items[0]["note"] == .text("calm"))
        #expect(items[0] != items[1])
        #expect(value.hashValue == StatisticValue.list(items).hashValue)
    }
}
