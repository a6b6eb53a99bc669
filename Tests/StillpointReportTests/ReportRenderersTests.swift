import Foundation
import StillpointCatalog
import StillpointManifest
import StillpointReport
import StillpointStatistics
import Testing

/// Report formats are open: a renderer from outside is registered beside Stillpoint's own, and a manifest, the
/// destinations and rendering then take its format as they take the built-in ones.
@Suite("Report renderer registry")
struct ReportRenderersTests {
    /// A renderer Stillpoint does not have: tab-separated names and values.
    struct TSVReportRenderer: ReportRenderer {
        let format = ReportFormat(name: "TSV", fileExtension: "tsv")

        func render(_ report: Report) -> String {
            report.entries.map { entry in
                let value = report.value(of: entry.id).map { "\($0)" } ?? "-"
                return "\(entry.name)\t\(value)"
            }.joined(separator: "\n") + "\n"
        }
    }

    @Test func anOutsideRendererIsRegisteredAndUsed() throws {
        var renderers = ReportRenderers.builtIn
        try renderers.add(TSVReportRenderer())
        #expect(renderers.formats.map(\.name) == ["text", "json", "markdown", "csv", "html", "tsv"])
        #expect(ReportFormat.argumentList(renderers.formats) == "text|json|markdown|csv|html|tsv")

        // A manifest read with the registered formats names the new one, case-insensitively like the others.
        let manifest = try Manifest(yaml: "statistics: [session_count]\noutput: {formats: [Tsv, json], path: /r/practice}\n",
                                    formats: renderers.formats)
        let tsv = try #require(manifest.output.formats.first)
        #expect(manifest.output.formats == [tsv, .json])
        #expect(ReportFormat(argument: "tsv", among: renderers.formats) == tsv)
        #expect(ReportDestination.plan(formats: nil, output: nil, manifestFormats: manifest.output.formats, manifestPath: manifest.outputPath)
            == [ReportDestination(format: tsv, path: "/r/practice.tsv"), ReportDestination(format: .json, path: "/r/practice.json")])

        let renderer = try #require(renderers.renderer(for: tsv))
        let report = SampleReports.fixed
        #expect(renderer.render(report) == TSVReportRenderer().render(report))
        #expect(renderer.render(report).split(separator: "\n").count == report.entries.count)
    }

    @Test func withoutRegistrationTheFormatIsUnknown() throws {
        #expect(ReportFormat(argument: "tsv") == nil)
        #expect(ReportRenderers.builtIn.renderer(for: ReportFormat(name: "tsv", fileExtension: "tsv")) == nil)
        #expect(throws: ManifestErrors.self) { try Manifest(yaml: "statistics: [session_count]\noutput: {formats: [tsv]}\n") }
        let problems = Manifest.validate(yaml: "statistics: [session_count]\noutput: {formats: [tsv]}\n",
                                         catalog: try StatisticCatalog(modules: BuiltInStatistics.modules))
        #expect(problems.count == 1)
        #expect(problems.first?.message.hasPrefix("unknown output format 'tsv'") == true, "\(problems)")
    }

    @Test func aSecondRendererOfAFormatIsRefused() throws {
        var renderers = ReportRenderers.builtIn
        struct OtherJSON: ReportRenderer {
            let format = ReportFormat(name: "Json", fileExtension: "js")
            func render(_ report: Report) -> String { "{}\n" }
        }
        #expect(throws: ReportRendererError.duplicateFormat("json")) { try renderers.add(OtherJSON()) }
        #expect(renderers.formats == ReportFormat.builtIn)
        #expect(ReportRendererError.duplicateFormat("json").description
            == "two renderers write the report format 'json'; give the added renderer's format another name")
    }
}
