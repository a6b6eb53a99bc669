import Foundation
import Testing

/// Golden files under `Golden/`, beside this file: a renderer's output is compared with the file, byte
/// for byte. Run with `STILLPOINT_UPDATE_GOLDEN=1` to rewrite the files after a deliberate change, then
/// read the diff before committing it.
enum Golden {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    static func check(_ actual: String, against name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let url = directory.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["STILLPOINT_UPDATE_GOLDEN"] == "1" {
            try Data(actual.utf8).write(to: url)
            return
        }
        let expected = try String(decoding: Data(contentsOf: url), as: UTF8.self)
        if actual != expected {
            let firstDifference = zip(actual.split(separator: "\n", omittingEmptySubsequences: false),
                                      expected.split(separator: "\n", omittingEmptySubsequences: false))
                .enumerated().first { $0.element.0 != $0.element.1 }
            Issue.record("""
                Output differs from Golden/\(name)\(firstDifference.map { " at line \($0.offset + 1):\n  actual:   \($0.element.0)\n  expected: \($0.element.1)" } ?? " in length").
                Rerun with STILLPOINT_UPDATE_GOLDEN=1 to accept the new output.
                """, sourceLocation: sourceLocation)
        }
    }
}
