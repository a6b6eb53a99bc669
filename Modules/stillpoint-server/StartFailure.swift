import ArgumentParser
import Foundation

/// Why the server could not start: one line on standard error and a `sysexits.h` status.
struct StartFailure: CustomStringConvertible {
    let description: String
    let status: Int32

    init(_ description: String, status: Int32) {
        self.description = description
        self.status = status
    }

    /// Writes the line on standard error, and returns the exit code that ends the command with the status.
    func reported() -> ExitCode {
        FileHandle.standardError.write(Data("stillpoint-server: \(description)\n".utf8))
        return ExitCode(status)
    }
}
