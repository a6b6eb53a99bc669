import ArgumentParser
import Foundation
import StillpointCore

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

    /// The status of a store that could not be opened: 66 not there, 65 not a store, 69 server away, 77 refused.
    static func status(of error: StoreError) -> Int32 {
        switch error {
        case .noStore, .specialFile: 66
        case .corrupt, .incompatibleSchema, .historyPurged, .newerVersion, .newerSchemaVersion, .needsUpgrade: 65
        case .permissionDenied: 77
        case .missingDirectory, .readOnlyDirectory, .readOnly: 73
        case .diskFull: 74
        case .storeModuleMissing: 70
        case .driver(_, let error):
            switch error.kind {
            case .badData: 65
            case .ioError: 74
            case .unavailable: 69
            case .temporaryFailure: 75
            case .usage: 64
            case .noInput: 66
            }
        }
    }
}
