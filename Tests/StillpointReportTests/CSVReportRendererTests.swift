import Testing
@testable import StillpointReport
import StillpointStatistics

@Suite("CSV report")
struct CSVReportRendererTests {
    @Test func matchesGolden() throws {
        try Golden.check(CSVReportRenderer().render(SampleReports.fixed), against: "report.csv")
    }

    @Test func hasTheHeaderAndCRLFLineEnds() {
        let csv = CSVReportRenderer().render(SampleReports.fixed)
        #expect(csv.hasPrefix("name,id,status,value,unit\r\n"))
        #expect(csv.hasSuffix("\r\n"))
        #expect(!csv.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
    }

    @Test func flattensRecordsAndListsToDottedNames() {
        let csv = CSVReportRenderer().render(SampleReports.fixed)
        #expect(csv.contains("sessions_by_weekday.monday.count,sessions_by_weekday,ok,3,count\r\n"))
        #expect(csv.contains("sessions_by_weekday.monday.time,sessions_by_weekday,ok,5400,seconds\r\n"))
        #expect(csv.contains("by_kind.kind.yoga.time,by_kind,ok,12330.5,seconds\r\n"))
        #expect(csv.contains("best_streaks.1.start,best_streaks,ok,2023-10-02,\r\n"))
        #expect(csv.contains("days_since_last_yoga,days_since_last_session,ok,,\r\n"))
    }

    @Test func quotesFieldsAsRFC4180Says() {
        #expect(CSVReportRenderer.quoted("plain") == "plain")
        #expect(CSVReportRenderer.quoted("a,b") == "\"a,b\"")
        #expect(CSVReportRenderer.quoted("say \"hi\"") == "\"say \"\"hi\"\"\"")
        // A row is one line: a line break shows escaped, as in every format (text from outside, file names).
        #expect(CSVReportRenderer.quoted("two\nlines") == #"two\nlines"#)
        #expect(CSVReportRenderer.quoted("log\u{1B}[2J.csv, 2") == #""log\u{1B}[2J.csv, 2""#)
        // Text that a spreadsheet would run as a formula is text; numbers stay numbers.
        #expect(CSVReportRenderer.quoted("=HYPERLINK(\"http://x\")") == #""'=HYPERLINK(""http://x"")""#)
        #expect(CSVReportRenderer.quoted("@SUM(A1)") == "'@SUM(A1)")
        #expect(CSVReportRenderer.quoted("+1 cmd") == "'+1 cmd")
        #expect(CSVReportRenderer.quoted("-5400") == "-5400")
        #expect(CSVReportRenderer.quoted("-2.5e3") == "-2.5e3")
        let csv = CSVReportRenderer().render(SampleReports.fixed)
        #expect(csv.contains("median_session_time,median_session_time,failed,\"could not read \"\"sessions\"\", the store is locked\",\r\n"))
    }
}
