import Foundation

/// Where an output's bytes go, decided from what its path names today.
///
/// - `-`, `/dev/stdout`, `/dev/stderr` and `/dev/fd/N` are the process's own streams, written through a copy of
///   their descriptor, so that a shell's `>>` still appends.
/// - A symbolic link is followed: the file it points to is written, and the link stays.
/// - An existing file that is not a regular file (a device such as `/dev/null`, a named pipe) is written in place.
/// - A regular file, or a name that does not exist yet, gets a temporary file beside it that is renamed over it
///   only when complete, so that a failure leaves the old file (or nothing).
///
/// ```swift
/// OutputDestination(path: "-")                 // .stream(1)
/// OutputDestination(path: "latest.csv")        // .replace(<the link's target>) when latest.csv is a link
/// OutputDestination(path: "/dev/null")         // .inPlace(URL(fileURLWithPath: "/dev/null"))
/// ```
package enum OutputDestination: Equatable, Sendable {
    /// An open descriptor of this process: written through `dup`.
    case stream(Int32)
    /// A file that is not a regular file: opened and written as it is.
    case inPlace(URL)
    /// A regular file, new or replaced whole through a temporary file and a rename.
    case replace(URL)

    package init(path: String) {
        if let descriptor = Self.standardStream(path) {
            self = .stream(descriptor)
            return
        }
        let target = Self.followingLinks(URL(fileURLWithPath: (path as NSString).expandingTildeInPath))
        if let descriptor = Self.standardStream(target.path) {
            self = .stream(descriptor)
            return
        }
        var status = stat()
        if stat(target.path, &status) == 0, status.st_mode & S_IFMT != S_IFREG, status.st_mode & S_IFMT != S_IFDIR {
            self = .inPlace(target)
        } else {
            self = .replace(target)
        }
    }

    /// The file the bytes land in, for messages; standard output is "standard output".
    package var displayPath: String {
        switch self {
        case .stream(1): return "standard output"
        case .stream(let descriptor): return "/dev/fd/\(descriptor)"
        case .inPlace(let url), .replace(let url): return url.path
        }
    }

    /// Opens the destination for writing: the descriptor, and the temporary file to rename at the end, if any.
    package func open() throws -> (descriptor: Int32, temporary: URL?) {
        switch self {
        case .stream(let descriptor):
            let copy = dup(descriptor)
            guard copy >= 0 else { throw Self.failure(errno, displayPath) }
            return (copy, nil)
        case .inPlace(let url):
            let descriptor = Foundation.open(url.path, O_WRONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw Self.failure(errno, url.path) }
            return (descriptor, nil)
        case .replace(let url):
            let temporary = url.deletingLastPathComponent()
                .appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).partial")
            let descriptor = Foundation.open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { throw Self.failure(errno, url.path) }
            // The new file keeps the permissions of the one it replaces: a private report stays private.
            var status = stat()
            if stat(url.path, &status) == 0 { fchmod(descriptor, status.st_mode & 0o7777) }
            return (descriptor, temporary)
        }
    }

    /// A write, sync, close or rename that failed, naming the destination (never the temporary file).
    package static func failure(_ code: Int32, _ path: String) -> CocoaError {
        CocoaError(.fileWriteUnknown, userInfo: [
            NSFilePathErrorKey: path,
            NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(code)),
        ])
    }

    private static func standardStream(_ path: String) -> Int32? {
        switch path {
        case "-", "/dev/stdout": return STDOUT_FILENO
        case "/dev/stderr": return STDERR_FILENO
        default:
            for prefix in ["/dev/fd/", "/proc/self/fd/"] where path.hasPrefix(prefix) {
                return Int32(path.dropFirst(prefix.count))
            }
            return nil
        }
    }

    /// The path a chain of symbolic links ends at (up to 40 links, as the kernel allows), stopping at the first
    /// standard stream, which is kept as it is written.
    private static func followingLinks(_ url: URL) -> URL {
        var current = url
        for _ in 0..<40 {
            guard standardStream(current.path) == nil,
                  let target = try? FileManager.default.destinationOfSymbolicLink(atPath: current.path) else { break }
            current = target.hasPrefix("/") ? URL(fileURLWithPath: target)
                : current.deletingLastPathComponent().appendingPathComponent(target).standardizedFileURL
        }
        return current
    }
}
