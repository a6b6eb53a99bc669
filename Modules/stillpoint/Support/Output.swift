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
        try Data(text.utf8).write(to: url(path), options: .atomic)
    }

    /// Refuses, before any work, an output whose folder is missing or cannot be written, or that is a folder.
    static func refuseUnwritable(_ path: String, option: String = "--output") throws {
        let url = url(path)
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

    private static func url(_ path: String) -> URL {
        URL(fileURLWithPath: (path as NSString).expandingTildeInPath)
    }
}
