import Foundation
import StillpointChildProcess
import Testing

/// Headless Chromium (Debian's `chromium`) driven over the DevTools protocol on a pipe: `--remote-debugging-pipe`
/// reads commands on its file descriptor 3 and writes answers on 4, each a JSON message ended by a NUL byte, so no
/// port is opened and nothing but this process can drive it. Its profile is a temporary folder; ``close()`` ends
/// the browser and removes the folder whatever happened.
///
/// ```swift
/// let browser = try await HeadlessChromium.launch()
/// defer { browser.close() }
/// try await browser.navigate(to: "http://127.0.0.1:8080/healthz")
/// let title = try await browser.evaluate("document.title")
/// ```
///
/// `@unchecked Sendable`: the pipe and the message counter are touched only on ``queue``, one command at a time.
final class HeadlessChromium: @unchecked Sendable {
    static let executable = "/usr/bin/chromium"
    /// How long one command may take before the browser is killed, so that a hung browser fails the test.
    static let commandSeconds = 120

    private let process: ChildProcess
    private let commands: FileHandle
    private let answers: FileHandle
    private let profile: URL
    private let queue = DispatchQueue(label: "headless-chromium-devtools")
    private var lastID = 0
    private var unread = Data()
    /// The DevTools session of the page the commands go to.
    private var session: String?

    private init(process: ChildProcess, commands: FileHandle, answers: FileHandle, profile: URL) {
        self.process = process
        self.commands = commands
        self.answers = answers
        self.profile = profile
    }

    /// Starts Chromium with a new profile and a page of `width` by `height` pixels, and attaches to that page.
    /// Fails with what to install when Chromium is not there; runs without its sandbox only as root (which the
    /// sandbox refuses).
    static func launch(width: Int = 1200, height: Int = 900) async throws -> HeadlessChromium {
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            throw ServerTestFailure("Chromium is not installed (no \(executable)); install Debian's package: apt-get update && apt-get install -y chromium")
        }
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("stillpoint-chromium-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
        var options = ["--headless=new", "--remote-debugging-pipe", "--user-data-dir=\(profile.path)", "--no-first-run",
                       "--no-default-browser-check", "--disable-gpu", "--disable-extensions", "--disable-background-networking",
                       "--disable-dev-shm-usage", "--hide-scrollbars", "--force-device-scale-factor=1", "--force-color-profile=srgb",
                       "--window-size=\(width),\(height)", "about:blank"]
        if getuid() == 0 { options.insert("--no-sandbox", at: 0) }
        // The shell hands the two pipes over as descriptors 3 and 4, then becomes Chromium (exec): one process id.
        let process = try ChildProcess("/bin/sh", ["-c", #"exec "$0" "$@" 3<&0 4>&1 </dev/null >/dev/null"#, executable] + options,
                                       standardInput: .pipe, standardOutput: .pipe,
                                       standardError: .file(profile.appendingPathComponent("chromium.log").path))
        guard let commands = process.standardInput, let answers = process.standardOutput else {
            throw ServerTestFailure("Chromium started without its DevTools pipes")
        }
        let browser = HeadlessChromium(process: process, commands: commands, answers: answers, profile: profile)
        do {
            let target = try await browser.call("Target.createTarget", ["url": "about:blank"], onPage: false)
            let targetID = try #require(target["targetId"] as? String, "Target.createTarget answered \(target)")
            let attached = try await browser.call("Target.attachToTarget", ["targetId": targetID, "flatten": true], onPage: false)
            browser.queue.sync { browser.session = attached["sessionId"] as? String }
            _ = try await browser.call("Page.enable")
            _ = try await browser.call("Runtime.enable")
        } catch {
            browser.close()
            throw error
        }
        return browser
    }

    /// Opens `url` in the page and waits until it has loaded.
    func navigate(to url: String) async throws {
        let answer = try await call("Page.navigate", ["url": url])
        if let error = answer["errorText"] as? String { throw ServerTestFailure("Chromium could not open \(url): \(error)") }
        let deadline = Date().addingTimeInterval(TimeInterval(Self.commandSeconds))
        while try await evaluate("document.readyState + ' ' + location.href") != "complete \(url)" {
            guard Date() < deadline else { throw ServerTestFailure("\(url) did not finish loading in \(Self.commandSeconds) s") }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// The value of the JavaScript `expression` in the page, as a string (a promise is awaited); throws with the
    /// page's exception.
    func evaluate(_ expression: String) async throws -> String {
        let answer = try await call("Runtime.evaluate", ["expression": "(async () => String(await (\(expression))))()",
                                                         "returnByValue": true, "awaitPromise": true])
        if let exception = answer["exceptionDetails"] as? [String: Any] {
            let description = ((exception["exception"] as? [String: Any])?["description"] as? String) ?? "\(exception)"
            throw ServerTestFailure("the page threw evaluating \(expression.prefix(200)): \(description)")
        }
        return ((answer["result"] as? [String: Any])?["value"] as? String) ?? ""
    }

    /// A PNG of the whole page, as tall as its content.
    func screenshot() async throws -> Data {
        let metrics = try await call("Page.getLayoutMetrics")
        let size = (metrics["cssContentSize"] as? [String: Any]) ?? [:]
        let width = (size["width"] as? Double) ?? 1200
        let height = (size["height"] as? Double) ?? 900
        let shot = try await call("Page.captureScreenshot", ["format": "png", "captureBeyondViewport": true,
                                                             "clip": ["x": 0, "y": 0, "width": width, "height": height, "scale": 1]])
        guard let base64 = shot["data"] as? String, let png = Data(base64Encoded: base64) else {
            throw ServerTestFailure("Page.captureScreenshot answered no image")
        }
        return png
    }

    /// Ends the browser (asked first, then SIGTERM, then SIGKILL) and removes its profile. Safe to call twice.
    func close() {
        if process.isRunning {
            // Browser.close lets Chromium end its own helper processes; its answer is not awaited. Written without the
            // queue, which a command that hung may still hold (until the watchdog kills the browser).
            try? commands.write(contentsOf: Data(#"{"id":999999,"method":"Browser.close","params":{}}"#.utf8) + [0])
            if process.waitUntilExit(within: .seconds(10)) == nil { process.signal(SIGTERM) }
            if process.waitUntilExit(within: .seconds(5)) == nil { process.signal(SIGKILL) }
            process.waitUntilExit()
        }
        try? commands.close()
        try? FileManager.default.removeItem(at: profile)
    }

    /// The end of Chromium's own log, for a failure's message.
    var logTail: String {
        let text = (try? String(contentsOf: profile.appendingPathComponent("chromium.log"), encoding: .utf8)) ?? ""
        return String(text.suffix(2_000))
    }

    /// Sends `method` (to the page unless `onPage` is false) and waits for its answer's `result`.
    private func call(_ method: String, _ parameters: [String: Any] = [:], onPage: Bool = true) async throws -> [String: Any] {
        let encoded = try JSONSerialization.data(withJSONObject: parameters)
        let watchdog = DispatchWorkItem { [process] in
            // A browser that stops answering is killed, which closes the pipe, which ends the read below.
            process.signal(SIGKILL)
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(Self.commandSeconds), execute: watchdog)
        defer { watchdog.cancel() }
        let answer: Data = try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Result { try self.exchange(method, encoded, onPage: onPage) })
            }
        }
        let message = try JSONSerialization.jsonObject(with: answer) as? [String: Any] ?? [:]
        if let error = message["error"] as? [String: Any] {
            throw ServerTestFailure("Chromium refused \(method): \(error["message"] ?? error)")
        }
        return message["result"] as? [String: Any] ?? [:]
    }

    /// On ``queue``: writes one command and reads messages until its answer (events in between are dropped).
    private func exchange(_ method: String, _ parameters: Data, onPage: Bool) throws -> Data {
        lastID += 1
        let id = lastID
        var command = Data(#"{"id":\#(id),"method":"\#(method)","params":"#.utf8) + parameters
        if onPage, let session { command += Data(#","sessionId":"\#(session)""#.utf8) }
        try commands.write(contentsOf: command + Data("}".utf8) + [0])
        while true {
            while !unread.contains(0) {
                let more = answers.availableData
                guard !more.isEmpty else {
                    throw ServerTestFailure("Chromium closed its DevTools pipe during \(method) (it crashed or took longer than "
                                          + "\(Self.commandSeconds) s); its log ends: \(logTail)")
                }
                unread += more
            }
            let end = unread.firstIndex(of: 0) ?? unread.endIndex
            let message = unread[unread.startIndex..<end]
            unread = Data(unread[unread.index(after: end)...])
            if let object = try? JSONSerialization.jsonObject(with: message) as? [String: Any], object["id"] as? Int == id {
                return Data(message)
            }
        }
    }
}
