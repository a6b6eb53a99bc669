import Testing
import StillpointReport
import StillpointStatistics

@Suite("Report destinations")
struct ReportDestinationTests {
    typealias D = ReportDestination

    @Test func theManifestsPathGetsOneFilePerFormat() {
        #expect(D.plan(formats: nil, output: nil, manifestFormats: [.html, .json], manifestPath: "/r/practice")
            == [D(format: .html, path: "/r/practice.html"), D(format: .json, path: "/r/practice.json")])
        // A path that already ends with the format's extension keeps it.
        #expect(D.plan(formats: nil, output: nil, manifestFormats: [.html], manifestPath: "/r/report.html")
            == [D(format: .html, path: "/r/report.html")])
        #expect(D.plan(formats: nil, output: nil, manifestFormats: [.markdown, .csv], manifestPath: "/r/p")
            == [D(format: .markdown, path: "/r/p.md"), D(format: .csv, path: "/r/p.csv")])
    }

    @Test func theCommandLineOverridesTheManifest() {
        // --format: that format alone, to the manifest's path.
        #expect(D.plan(formats: [.json], output: nil, manifestFormats: [.html, .text], manifestPath: "/r/p")
            == [D(format: .json, path: "/r/p.json")])
        // --output with one format: as written.
        #expect(D.plan(formats: [.text], output: "report.out", manifestFormats: [.html], manifestPath: "/r/p")
            == [D(format: .text, path: "report.out")])
        // --output with the manifest's formats: a base name.
        #expect(D.plan(formats: nil, output: "mine", manifestFormats: [.html, .json], manifestPath: "/r/p")
            == [D(format: .html, path: "mine.html"), D(format: .json, path: "mine.json")])
        #expect(D.plan(formats: nil, output: "-", manifestFormats: [.json], manifestPath: "/r/p") == [D(format: .json, path: "-")])
    }

    @Test func withoutAPathReportsGoToStandardOutput() {
        #expect(D.plan(formats: nil, output: nil, manifestFormats: [], manifestPath: nil) == [D(format: .text, path: "-")])
        #expect(D.plan(formats: nil, output: nil, manifestFormats: [.json, .json], manifestPath: "-") == [D(format: .json, path: "-")])
    }
}
