import Foundation
import StillpointCore
import StillpointReport

/// Writing to standard output and standard error, and to the files commands are asked to write.
///
/// A message is one line: whatever in it came from outside (a file name, an export's field, a server's error)
/// can neither drive the terminal nor start a line of its own, since its control characters and line breaks
/// are shown escaped (``ValueText/visible(_:keepingLineBreaks:)``). Text of several lines that the tool makes
/// itself says so with `keepingLineBreaks`.
///
/// ```swift
/// Output.printError("wrote the report to \(path)")   // a newline in `path` shows as \n
/// ```
enum Output {
    static func print(_ text: String, keepingLineBreaks: Bool = false) {
        FileHandle.standardOutput.write(Data(line(text, keepingLineBreaks: keepingLineBreaks).utf8))
    }

    static func printError(_ text: String, keepingLineBreaks: Bool = false) {
        FileHandle.standardError.write(Data(line(text, keepingLineBreaks: keepingLineBreaks).utf8))
    }

    /// The text made visible, ending with one line break.
    private static func line(_ text: String, keepingLineBreaks: Bool) -> String {
        let body = text.hasSuffix("\n") ? String(text.dropLast()) : text
        return ValueText.visible(body, keepingLineBreaks: keepingLineBreaks) + "\n"
    }

    /// Writes `text` to `path` as ``OutputDestination`` says: `-` is standard output, a link is written through,
    /// a device in place, and a regular file through a temporary file, so that a failure leaves no half-written
    /// file. Returns where the text went, for messages.
    @discardableResult
    static func write(_ text: String, to path: String) throws -> String {
        let file = try ExportFile(destination: OutputDestination(path: path))
        var bytes = Array(text.utf8)
        try file.commit(&bytes)
        return file.destination.displayPath
    }

    /// Refuses, before any work, an output whose folder is missing or cannot be written, or that is a folder.
    /// Standard output, devices and pipes need no folder.
    static func refuseUnwritable(_ path: String, option: String = "--output") throws {
        guard case .replace(let url) = OutputDestination(path: path) else { return }
        let folder = url.deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw ToolFailure("\(option) \(path) is a folder; name a file to write", status: .cannotCreate)
        }
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ToolFailure("\(option) \(path): the folder \(folder) does not exist; create it or write elsewhere",
                              status: .cannotCreate)
        }
        guard access(folder, W_OK) == 0 else {
            throw ToolFailure("\(option) \(path): the folder \(folder) cannot be written; choose a writable folder",
                              status: .cannotCreate)
        }
    }
}
