import StillpointManifest
@testable import StillpointReport
import StillpointStatistics
import Testing

@Suite("Report format")
struct ReportFormatTests {
    @Test func parsesTheCommandLineNames() {
        #expect(ReportFormat.argumentList() == "text|json|markdown|csv|html")
        #expect(ReportFormat(argument: "json") == .json)
        #expect(ReportFormat(argument: "HTML") == .html)
        #expect(ReportFormat(argument: "pdf") == nil)
    }

    @Test func eachFormatHasItsBuiltInRenderer() {
        #expect(ReportRenderers.builtIn.formats == ReportFormat.builtIn)
        for format in ReportFormat.builtIn {
            #expect(ReportRenderers.builtIn.renderer(for: format)?.format == format)
        }
    }

    @Test func rendersThroughStaticMembers() {
        func render(_ report: Report, with renderer: some ReportRenderer) -> String { renderer.render(report) }
        #expect(render(SampleReports.fixed, with: .json) == JSONReportRenderer().render(SampleReports.fixed))
        #expect(render(SampleReports.fixed, with: .csv).hasPrefix("name,id,status,value,unit"))
    }
}
