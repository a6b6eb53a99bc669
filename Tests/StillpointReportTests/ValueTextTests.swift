import Testing
@testable import StillpointReport
import StillpointStatistics

@Suite("Value text")
struct ValueTextTests {
    /// Text from outside shows its control characters, line breaks and bidirectional controls escaped, and
    /// everything else (accents, emoji, joiners) as is.
    @Test func showsTextFromOutsideVisibly() {
        #expect(ValueText.visible("log\u{1B}]0;owned\u{07}\u{1B}[2J\nrun 99") == #"log\u{1B}]0;owned\u{7}\u{1B}[2J\nrun 99"#)
        #expect(ValueText.visible("a\r\nb\tc\u{0}d\u{7F}e\u{9B}f") == #"a\r\nb\tc\u{0}d\u{7F}e\u{9B}f"#)
        #expect(ValueText.visible("abc\u{202E}fdp.exe\u{2028}") == #"abc\u{202E}fdp.exe\u{2028}"#)
        #expect(ValueText.visible("Café 🧘‍♀️ C:\\x") == "Café 🧘‍♀️ C:\\x")
        #expect(ValueText.visible("one\ntwo\u{1B}", keepingLineBreaks: true) == "one\ntwo\\u{1B}")
    }

    @Test func writesDurationsAsPeopleDo() {
        #expect(ValueText.duration(0) == "0s")
        #expect(ValueText.duration(45) == "45s")
        #expect(ValueText.duration(725) == "12m 5s")
        #expect(ValueText.duration(900) == "15m")
        #expect(ValueText.duration(4_980) == "1h 23m")
        #expect(ValueText.duration(3_590) == "1h")
        #expect(ValueText.duration(900_000) == "250h")
    }

    @Test func writesUnits() {
        #expect(ValueText.quantity(1, .days) == "1 day")
        #expect(ValueText.quantity(12, .days) == "12 days")
        #expect(ValueText.quantity(2, .weeks) == "2 weeks")
        #expect(ValueText.quantity(86.6, .percent) == "87 %")
        #expect(ValueText.quantity(412, .count) == "412")
    }

    @Test func writesKnownRecordsOnOneLine() {
        #expect(ValueText.inline(SampleReports.tally(1, 5_400)) == "1 session · 1h 30m")
        #expect(ValueText.inline(SampleReports.streak("2024-03-04", "2024-03-08")) == "2024-03-04 – 2024-03-08 · 5 days")
        #expect(ValueText.inline(.none) == "—")
        #expect(ValueText.inline(.list([SampleReports.streak("2024-03-04", "2024-03-08")])) == nil)
        #expect(ValueText.label(forKey: "7", presentation: .byHour) == "07:00")
        #expect(ValueText.label(forKey: "insight_timer") == "Insight Timer")
    }

    @Test func isTotalOverValuesNoSessionCanHave() {
        // A store held an infinite duration: text reports trapped on it.
        #expect(ValueText.duration(.infinity) == ValueText.noValue)
        #expect(ValueText.duration(-.infinity) == ValueText.noValue)
        #expect(ValueText.duration(.nan) == ValueText.noValue)
        #expect(ValueText.duration(1e300) == "\((1e300 / 3_600).rounded())h")
        #expect(ValueText.duration(1e300).contains("e+"))
        #expect(ValueText.duration(-1e300).hasPrefix("-"))
        #expect(ValueText.duration(Double.greatestFiniteMagnitude).hasSuffix("h"))
        #expect(ValueText.duration(3.6e18) == "1000000000000000.0h")
        #expect(ValueText.duration(3.6e18 - 3.6e6) == "999,999,999,999,000h")
        for unit in StatisticUnit.allCases {
            #expect(ValueText.quantity(.infinity, unit) == ValueText.noValue)
            #expect(ValueText.quantity(.nan, unit) == ValueText.noValue)
            #expect(!ValueText.quantity(1e300, unit).isEmpty)
        }
        #expect(ValueText.inline(SampleReports.tally(3, .infinity)) == "3 sessions · —")
        #expect(ValueText.inline(SampleReports.tally(3, 1e300)) != nil)
        #expect(!ValueText.status(.running(progress: .nan)).contains("nan"))
        #expect(ValueText.whole(.nan) == ValueText.noValue)
        #expect(ValueText.whole(1e300) == "1e+300")
    }
}
