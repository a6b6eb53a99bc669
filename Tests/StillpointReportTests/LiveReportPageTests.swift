import Foundation
@testable import StillpointReport
import Testing

/// The self-updating page (LiveReportPage): the HTML report with one inline script, under a nonce, that cannot be
/// broken out of by what its URLs hold.
@Suite("live report page")
struct LiveReportPageTests {
    let page = LiveReportPage(eventsURL: "/v1/practitioners/alice/report/events",
                              reportURL: "/v1/practitioners/alice/report?format=html")

    @Test func theReportGetsOneScriptBeforeItsBodyEnds() throws {
        let html = HTMLReportRenderer().render(SampleReports.fixed)
        let rendered = page.render(html: html, generation: 42, nonce: "abc123")
        #expect(rendered.components(separatedBy: "<script").count == 2)
        #expect(rendered.contains("<script nonce=\"abc123\">"))
        #expect(rendered.contains("let shown = 42;"))
        #expect(rendered.contains(#"new EventSource("/v1/practitioners/alice/report/events""#))
        #expect(rendered.contains(#"fetch("/v1/practitioners/alice/report?format=html""#))
        // The report as it was, and the script after it, inside the body.
        let scriptAt = try #require(rendered.range(of: "<script"))
        #expect(rendered[..<scriptAt.lowerBound] == html[..<(try #require(html.range(of: "</body>"))).lowerBound])
        #expect(rendered.hasSuffix("</script>\n</body>\n</html>\n"))
        // Nothing from elsewhere.
        #expect(!rendered.contains("src="))
        #expect(!rendered.contains("http://") && !rendered.contains("https://"))
    }

    @Test func aURLCannotEndTheScript() {
        let hostile = LiveReportPage(eventsURL: "/e\"</script><script>alert(1)</script>", reportURL: "/r\u{2028}")
        let rendered = hostile.render(html: "<html><body></body></html>", generation: 1, nonce: "n\"><script>")
        #expect(!rendered.contains("</script><script>alert(1)"))
        #expect(rendered.contains(#""/e\"\u003c/script\u003e\u003cscript\u003ealert(1)\u003c/script\u003e""#))
        #expect(rendered.contains(#""/r\u2028""#))
        #expect(rendered.contains("nonce=\"n&quot;&gt;&lt;script&gt;\""))
    }

    @Test func thePolicyAllowsTheNoncedScriptAndTheOriginOnly() {
        let policy = LiveReportPage.contentSecurityPolicy(nonce: "abc123")
        #expect(policy.contains("script-src 'nonce-abc123';"))
        #expect(policy.contains("connect-src 'self';"))
        #expect(policy.hasPrefix("default-src 'none';"))
        #expect(!policy.contains("script-src 'unsafe-inline'"))
    }

    @Test func eachNonceIsNewAndOf128Bits() {
        let nonces = (0..<100).map { _ in LiveReportPage.makeNonce() }
        #expect(Set(nonces).count == 100)
        #expect(nonces.allSatisfy { Data(base64Encoded: $0)?.count == 16 })
    }
}
