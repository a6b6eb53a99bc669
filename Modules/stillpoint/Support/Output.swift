import Foundation

/// Writing to standard output and standard error.
enum Output {
    static func print(_ text: String) {
        FileHandle.standardOutput.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
    }

    static func printError(_ text: String) {
        FileHandle.standardError.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
    }

    /// Writes `text` to `path` through a temporary file, so that a failure leaves no half-written file.
    static func write(_ text: String, to path: String) throws {
        let url = URL(fileURLWithPath: (path as NSString).expandingTildeInPath)
        try Data(text.utf8).write(to: url, options: .atomic)
    }
}
