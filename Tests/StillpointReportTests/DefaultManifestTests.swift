import Foundation
import Testing
@testable import StillpointReport

@Test func theEmbeddedDefaultManifestIsConfigDefault() throws {
    let config = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Config/default.yaml")
    #expect(DefaultManifest.yaml == (try String(contentsOf: config, encoding: .utf8)),
            "Config/default.yaml changed: copy it into Modules/StillpointReport/Setup/DefaultManifest.swift")
}
