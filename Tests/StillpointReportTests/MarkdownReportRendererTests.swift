import Testing
@testable import StillpointReport
import StillpointStatistics

@Suite("Markdown report")
struct MarkdownReportRendererTests {
    @Test func matchesGolden() throws {
        try Golden.check(MarkdownReportRenderer().render(SampleReports.fixed), against: "report.md")
    }

    @Test func givesRecordsASubTable() {
        let markdown = MarkdownReportRenderer().render(SampleReports.fixed)
        #expect(markdown.contains("| Sessions by weekday | see below | |"))
        #expect(markdown.contains("## Sessions by weekday\n\n| | Count | Time |\n| --- | --- | --- |\n| Monday | 3 | 1h 30m |"))
        #expect(markdown.contains("### Kind"))
    }

    @Test func escapesPipesAndHTML() {
        #expect(MarkdownReportRenderer.escape("a|b <script>") == "a\\|b &lt;script&gt;")
        // Links, code and emphasis stay text; control characters and line breaks show escaped, backslash and all.
        #expect(MarkdownReportRenderer.escape("[x](http://y) `z` *w* snake_case") == #"\[x\](http://y) \`z\` \*w\* snake_case"#)
        #expect(MarkdownReportRenderer.escape("a\u{1B}[2J\nb") == #"a\\u{1B}\[2J\\nb"#)
    }
}
