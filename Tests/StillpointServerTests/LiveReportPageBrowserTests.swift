import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import StillpointServer

/// The practitioner's page looked at in a real browser: the built `stillpoint-server` over the default store (the
/// demo practitioner `me`), headless Chromium given the page's cookie by the page's origin, a session posted
/// through the API, and the page's numbers read from its DOM until they change, without a reload.
@Suite("live page in a browser")
struct LiveReportPageBrowserTests {
    /// Each value card of the page, `title=value`, one a line, and the generation the page shows.
    static let cards = """
        [...document.querySelectorAll("main article.card")]
          .map(card => card.querySelector("h3").textContent.trim() + "=" + (card.querySelector(".big")?.textContent.trim() ?? ""))
          .join("\\n")
        """

    @Test func thePagesNumbersChangeWithoutAReload() async throws {
        // No --store: the default store, made from the demo history with the practitioner `me`.
        let server = try await RunningServer.start(store: nil)
        defer { server.stop() }
        let issued = try await server.send("POST", "/v1/practitioners/me/token", token: ServerTestStore.adminToken)
        try #require(issued.status == 201, "a new token for me: \(issued.text)")
        let token = try JSONDecoder().decode(IssuedTokenBody.self, from: issued.body).token

        let browser = try await HeadlessChromium.launch()
        defer { browser.close() }
        // The page's origin hands the browser its cookie, as a practice app's own page would.
        try await browser.navigate(to: server.base + "/healthz")
        let posted = try await browser.evaluate("""
            fetch("/v1/practitioners/me/cookie", {method: "POST", headers: {"Content-Type": "application/json"},
                  body: JSON.stringify({token: \(try Self.javaScriptString(token))})}).then(answer => answer.status)
            """)
        #expect(posted == "204")
        #expect(try await browser.evaluate("document.cookie") == "", "the cookie is HttpOnly: no script reads it")

        try await browser.navigate(to: server.base + "/v1/practitioners/me")
        let before = try await browser.evaluate(Self.cards)
        let sessionsBefore = try #require(Self.count(named: "Sessions", in: before), "no Sessions card on the page: \(before)")
        // Gone with a reload: the page must change in place.
        _ = try await browser.evaluate("window.stillpointNotReloaded = true")
        try await Self.waitUntil("the page's event stream", browser) {
            try await server.send("GET", "/metrics").text.contains("stillpoint_report_subscriptions 1")
        }

        let start = ISO8601DateFormatter().string(from: Date().addingTimeInterval(-2 * 3_600))
        let saved = try await server.send("POST", "/v1/practitioners/me/sessions", token: token,
                                          body: Data(#"[{"start": "\#(start)", "duration": 1500, "kind": "yoga", "key": "browser-test"}]"#.utf8))
        #expect(saved.status == 201)

        var after = before
        try await Self.waitUntil("the page to show the new session", browser) {
            after = try await browser.evaluate(Self.cards)
            return Self.count(named: "Sessions", in: after) == sessionsBefore + 1
        }
        #expect(try await browser.evaluate("window.stillpointNotReloaded === true") == "true", "the page was reloaded")
        #expect(try await browser.evaluate("document.body.dataset.generation ?? ''") != "", "the script put in a new generation")
        #expect(after != before)

        let png = try await browser.screenshot()
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]), "a PNG")
        // `STILLPOINT_UPDATE_SCREENSHOT=1 swift test --filter LiveReportPageBrowserTests` renews the README's picture.
        if ProcessInfo.processInfo.environment["STILLPOINT_UPDATE_SCREENSHOT"] == "1" {
            try png.write(to: ToolProcess.repository.appendingPathComponent("docs/images/live-report.png"))
        }
    }

    /// The number in a `title=value` line of ``cards``.
    static func count(named title: String, in cards: String) -> Int? {
        cards.split(separator: "\n").first { $0.hasPrefix(title + "=") }
            .flatMap { Int($0.dropFirst(title.count + 1).filter(\.isNumber)) }
    }

    static func javaScriptString(_ text: String) throws -> String {
        String(decoding: try JSONEncoder().encode(text), as: UTF8.self)
    }

    /// Waits up to two minutes (the machine is shared) for `condition`, then fails with the browser's log.
    static func waitUntil(_ what: String, _ browser: HeadlessChromium, _ condition: () async throws -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(120)
        while try await !condition() {
            guard ContinuousClock.now < deadline else { throw ServerTestFailure("waited two minutes for \(what); Chromium's log ends: \(browser.logTail)") }
            try await Task.sleep(for: .milliseconds(100))
        }
    }
}
