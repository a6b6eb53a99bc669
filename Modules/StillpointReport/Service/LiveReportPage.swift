import Foundation

/// The HTML report as a page that keeps itself current: the report ``HTMLReportRenderer`` writes, with one inline
/// script that listens to the report's event stream and, on each new generation, fetches the HTML report again and
/// puts its `<main>` in place of the one shown (no reload, no script from elsewhere).
///
/// The script runs only under a Content-Security-Policy that names its `nonce` (``contentSecurityPolicy(nonce:)``);
/// the server makes a new nonce for each page. The event stream and the report are fetched from the page's own
/// origin with its cookies, since `EventSource` cannot send an `Authorization` header.
///
/// ```swift
/// let nonce = LiveReportPage.makeNonce()
/// let page = LiveReportPage(eventsURL: "/v1/practitioners/alice/report/events",
///                           reportURL: "/v1/practitioners/alice/report?format=html")
///     .render(html: live.body, generation: live.generation, nonce: nonce)
/// // headers: Content-Security-Policy: LiveReportPage.contentSecurityPolicy(nonce: nonce)
/// ```
public struct LiveReportPage: Sendable {
    /// Where the page listens for new generations (`text/event-stream`, `id:` the generation).
    public var eventsURL: String
    /// Where it fetches the HTML report of a new generation.
    public var reportURL: String

    public init(eventsURL: String, reportURL: String) {
        self.eventsURL = eventsURL
        self.reportURL = reportURL
    }

    /// The page: `html` (an HTML report of `generation`) with the script before its `</body>`.
    public func render(html: String, generation: Int64, nonce: String) -> String {
        let script = "<script nonce=\"\(HTMLText.escape(nonce))\">\n" + Self.script
            .replacingOccurrences(of: "EVENTS_URL", with: Self.scriptString(eventsURL))
            .replacingOccurrences(of: "REPORT_URL", with: Self.scriptString(reportURL))
            .replacingOccurrences(of: "GENERATION", with: String(generation)) + "</script>\n"
        guard let end = html.range(of: "</body>", options: .backwards) else { return html + script }
        return html.replacingCharacters(in: end.lowerBound..<end.lowerBound, with: script)
    }

    /// The policy the page is served with: its own script (by nonce) and styles, and connections to its origin only.
    public static func contentSecurityPolicy(nonce: String) -> String {
        "default-src 'none'; script-src 'nonce-\(nonce)'; style-src 'unsafe-inline'; img-src 'self' data:; "
            + "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    }

    /// A nonce of 128 random bits, base64: new for each page served.
    public static func makeNonce() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Data(bytes).base64EncodedString()
    }

    /// `text` as a JavaScript string literal that cannot end the script element it is in.
    static func scriptString(_ text: String) -> String {
        OrderedJSON.string(text).formatted()
            .replacingOccurrences(of: "<", with: "\\u003c")
            .replacingOccurrences(of: ">", with: "\\u003e")
            .replacingOccurrences(of: "\u{2028}", with: "\\u2028")
            .replacingOccurrences(of: "\u{2029}", with: "\\u2029")
    }

    /// Shows each newer generation: the report's `<main>` and title replaced; a line under it while the stream is
    /// down or the report stale (EventSource reconnects by itself, sending `Last-Event-ID`).
    static let script = """
        (() => {
          let shown = GENERATION;
          const status = document.createElement("p");
          status.className = "live-status";
          status.setAttribute("role", "status");
          status.style.cssText = "font: 13px system-ui, sans-serif; color: #8a6d3b; margin: 8px auto; max-width: 960px;";
          document.body.prepend(status);
          const events = new EventSource(EVENTS_URL, { withCredentials: true });
          events.onopen = () => { status.textContent = ""; };
          events.onerror = () => { status.textContent = "Reconnecting to the live report…"; };
          events.onmessage = async (event) => {
            const generation = Number(event.lastEventId);
            let stale = false;
            try { stale = JSON.parse(event.data).stale === true; } catch (_) {}
            status.textContent = stale ? "The store cannot be reached: this report may be behind." : "";
            if (!(generation > shown)) { return; }
            const answer = await fetch(REPORT_URL, { credentials: "same-origin", cache: "no-store" });
            if (!answer.ok) { return; }
            const next = new DOMParser().parseFromString(await answer.text(), "text/html");
            const main = next.querySelector("main");
            if (!main || !(generation > shown)) { return; }
            shown = generation;
            document.querySelector("main").replaceWith(document.adoptNode(main));
            document.title = next.title;
            document.body.dataset.generation = String(generation);
          };
        })();

        """
}
