import Testing
@testable import StillpointReport
import StillpointStatistics

@Suite("Report format")
struct ReportFormatTests {
    @Test func parsesTheCommandLineNames() {
        #expect(ReportFormat.argumentList == "text|json|markdown|csv|html")
        #expect(ReportFormat(argument: "json") == .json)
        #expect(ReportFormat(argument: "HTML") == .html)
        #expect(ReportFormat(argument: "pdf") == nil)
    }

    @Test func eachFormatHasItsBuiltInRenderer() {
        for format in ReportFormat.allCases {
            #expect(format.renderer.format == format)
        }
    }

    @Test func rendersThroughStaticMembers() {
        func render(_ report: Report, with renderer: some ReportRenderer) -> String { renderer.render(report) }
        #expect(render(SampleReports.fixed, with: .json) == JSONReportRenderer().render(SampleReports.fixed))
        #expect(render(SampleReports.fixed, with: .csv).hasPrefix("name,id,status,value,unit"))
    }
}
