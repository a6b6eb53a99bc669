import Foundation
import StillpointCore

/// Writing to standard output and standard error, and to the files commands are asked to write.
enum Output {
    static func print(_ text: String) {
        FileHandle.standardOutput.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
    }

    static func printError(_ text: String) {
        FileHandle.standardError.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
    }

    /// Writes `text` to `path` as ``OutputDestination`` says: `-` is standard output, a link is written through,
    /// a device in place, and a regular file through a temporary file, so that a failure leaves no half-written
    /// file. Returns where the text went, for messages.
    @discardableResult
    static func write(_ text: String, to path: String) throws -> String {
        let destination = OutputDestination(path: path)
        let (descriptor, temporary) = try destination.open()
        let bytes = Array(text.utf8)
        var failure: Int32 = 0
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count, let base = raw.baseAddress {
                let written = Foundation.write(descriptor, base + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += written
            }
        }
        if failure == 0, temporary != nil, fsync(descriptor) != 0 { failure = errno }
        if close(descriptor) != 0, failure == 0 { failure = errno }
        if let temporary, case .replace(let target) = destination, failure == 0, rename(temporary.path, target.path) != 0 {
            failure = errno
        }
        if failure != 0 {
            if let temporary { unlink(temporary.path) }
            throw OutputDestination.failure(failure, destination.displayPath)
        }
        return destination.displayPath
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
