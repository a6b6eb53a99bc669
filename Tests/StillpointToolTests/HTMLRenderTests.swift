import Foundation
import StillpointChildProcess
import Testing

/// The HTML report in a real browser: headless Chromium lays it out at 1200 and 420 pixels wide, for a large
/// history and for an empty store, and a script measures that no text leaves its card or panel and that the
/// page does not scroll sideways. Runs only where `chromium` is on the PATH (Debian: apt-get install -y chromium).
@Suite("HTML report in Chromium", .serialized, .enabled(if: Chromium.path != nil, "chromium is not on the PATH"))
struct HTMLRenderTests {
    /// The report in a frame exactly `width` pixels wide (a headless window is at least 500 wide), and a script
    /// that measures it once laid out: every text element of a card or panel whose box leaves the box of its
    /// card or panel, and whether the report is wider than its frame.
    static func measuringPage(_ html: String, width: Int) -> String {
        let source = html.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
        return """
        <!doctype html><html><body style="margin:0">
        <iframe id="report" style="border:0;width:\(width)px;height:3000px" srcdoc="\(source)"></iframe>
        <script>
        function measure() {
          var frame = document.getElementById('report'), d = frame.contentDocument, w = frame.contentWindow;
          if (!d || d.readyState !== 'complete' || !d.body) return;
          var problems = [];
          d.querySelectorAll('.card, .panel').forEach(function (box) {
            var b = box.getBoundingClientRect();
            box.querySelectorAll('text, p, span, li, h2, h3, strong').forEach(function (el) {
              var r = el.getBoundingClientRect();
              if (r.width === 0 && r.height === 0) return;
              if (r.left < b.left - 1 || r.right > b.right + 1) {
                problems.push((el.textContent || '').trim().slice(0, 40) + ' [' + Math.round(r.left) + ', ' + Math.round(r.right)
                  + '] outside [' + Math.round(b.left) + ', ' + Math.round(b.right) + ']');
              }
            });
          });
          if (d.documentElement.scrollWidth > w.innerWidth + 1) {
            problems.push('the page is ' + d.documentElement.scrollWidth + ' px wide in a frame of ' + w.innerWidth);
          }
          document.body.setAttribute('data-problems', problems.join(' | ').replace(/"/g, "'"));
          document.body.setAttribute('data-measured', String(w.innerWidth));
        }
        document.getElementById('report').addEventListener('load', measure);
        measure();
        </script>
        </body></html>
        """
    }

    /// The problems the measuring page found at `width` pixels; a failure when Chromium did not lay it out.
    static func problems(in html: String, width: Int, folder: String) throws -> String {
        let page = URL(fileURLWithPath: folder).appendingPathComponent("measure-\(width).html")
        try measuringPage(html, width: width).write(to: page, atomically: true, encoding: .utf8)
        let browser = try ChildProcess(try #require(Chromium.path), ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
                             "--disable-extensions", "--user-data-dir=\(folder)/profile-\(width)", "--force-device-scale-factor=1",
                             "--host-resolver-rules=MAP * ~NOTFOUND", "--window-size=\(max(width, 1200)),2000", "--dump-dom", page.absoluteString], standardOutput: .collected)
        // A browser that hangs fails the test instead of stalling the suite.
        if browser.waitUntilExit(within: .seconds(120)) == nil { browser.signal(SIGTERM) }
        let dom = browser.waitForResult().standardOutput
        #expect(dom.contains("data-measured=\"\(width)\""), "Chromium did not lay out the report \(width) px wide")
        guard let start = dom.range(of: "data-problems=\"") else { return "" }
        return String(dom[start.upperBound...].prefix { $0 != "\"" })
    }

    /// `ended` is a history whose last session is four years before the report (its last year and months shown).
    @Test(arguments: ["large", "empty", "ended"])
    func nothingLeavesItsCard(store kind: String) async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = tool.path("\(kind).sqlite")
        let sessions = kind == "empty" ? "0" : "6000"
        let end = kind == "ended" ? "2021-05-31T20:00:00Z" : "2025-05-31T20:00:00Z"
        let demo = try await tool.run(["demo", "--sessions", sessions, "--years", "8", "--ending-at", end, "--store", store])
        #expect(demo.status == 0, "\(demo.standardError)")
        let output = tool.path("\(kind).html")
        let report = try await tool.run(["report", "--store", store, "--format", "html", "--output", output, "--as-of", ReportCommandTests.asOf])
        #expect(report.status == 0, "\(report.standardError)")
        let html = try String(contentsOfFile: output, encoding: .utf8)
        for width in [1200, 420] {
            let problems = try Self.problems(in: html, width: width, folder: tool.directory.path)
            #expect(problems.isEmpty, "\(kind) store at \(width) px: \(problems)")
        }
    }
}

/// Where Chromium is, if it is on the PATH.
enum Chromium {
    static let path: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            for name in ["chromium", "chromium-browser"] {
                let candidate = "\(folder)/\(name)"
                if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            }
        }
        return nil
    }()
}
