import ArgumentParser
import Foundation
import PracticeLog
import StillpointCore
import StillpointManifest
import StillpointStatistics

extension ToolFailure {
    /// The one-line message and exit status for an error a command threw, or `nil` for the argument parser's
    /// own errors (usage, help, `ExitCode`), which it reports itself.
    init?(_ error: any Error) {
        switch error {
        case let failure as ToolFailure:
            self = failure
        case is ExitCode, is CleanExit, is ValidationError:
            return nil
        case let error as StoreError:
            self.init(error.description, status: Self.status(of: error))
        case let error as ImportFormatError:
            self.init(error.localizedDescription, status: .dataError)
        case let error as ImportDataError:
            self.init(error.localizedDescription, status: .dataError)
        case let error as ImportReadError:
            self.init(error.localizedDescription, status: error.line == nil ? .noInput : .ioError)
        case let error as ManifestErrors:
            // One line, without the `error:` each problem's description starts with; a manifest that cannot
            // be read is a missing input, one that says something wrong is bad data.
            self.init(error.summary, status: error.isUnreadableFile ? .noInput : .dataError)
        case let error as ManifestError:
            self.init(error.locatedMessage, status: error.isUnreadableFile ? .noInput : .dataError)
        case is ParameterError, is CatalogError, is CustomStatisticError,
             is FetchPredicateError, is SchemaError, is StoredValueError:
            self.init(String(describing: error), status: .dataError)
        case let error as CocoaError:
            self.init(Self.message(of: error), status: Self.status(of: error))
        case let error as POSIXError:
            self.init(String(cString: strerror(error.code.rawValue)), status: .ioError)
        case let error as any LocalizedError:
            self.init(error.errorDescription ?? "\(type(of: error)) failed", status: .failure)
        default:
            // The argument parser's own errors are not public types: leave to it what it reports as a misuse.
            guard StillpointCommand.exitCode(for: error) == .failure else { return nil }
            self.init((error as NSError).localizedDescription, status: .software)
        }
    }

    private static func status(of error: StoreError) -> ExitStatus {
        ExitStatus(rawValue: error.exitStatus) ?? .software
    }

    /// The system's error number behind a file error, when there is one.
    private static func posixCode(of error: CocoaError) -> Int32? {
        guard let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError,
              underlying.domain == NSPOSIXErrorDomain else { return nil }
        return Int32(exactly: underlying.code)
    }

    private static func status(of error: CocoaError) -> ExitStatus {
        if posixCode(of: error) == ENOSPC { return .ioError }
        return switch error.code {
        case .fileNoSuchFile, .fileReadNoSuchFile: .noInput
        case .fileReadNoPermission, .fileReadCorruptFile, .fileReadUnknown, .fileReadInvalidFileName,
             .fileReadTooLarge, .fileReadUnknownStringEncoding, .fileReadInapplicableStringEncoding:
            .noInput
        case .fileWriteNoPermission, .fileWriteVolumeReadOnly, .fileWriteInvalidFileName, .fileWriteFileExists,
             .fileWriteInapplicableStringEncoding, .fileWriteUnsupportedScheme, .fileLocking:
            .cannotCreate
        default: .ioError
        }
    }

    /// Foundation's message without its domain and code, with the path it concerns.
    private static func message(of error: CocoaError) -> String {
        let path = error.filePath ?? error.url?.path
        let what: String
        switch error.code {
        case .fileNoSuchFile, .fileReadNoSuchFile: what = "no such file"
        case .fileReadNoPermission: what = "permission to read it is denied"
        case .fileWriteNoPermission: what = "permission to write it is denied"
        case .fileWriteOutOfSpace: what = "the disk is full"
        case _ where posixCode(of: error) == ENOSPC: what = "the disk is full; free some space and try again"
        case .fileWriteVolumeReadOnly: what = "the volume is read-only"
        case .fileWriteFileExists: what = "a file of that name already exists"
        default:
            let verb = error.code.rawValue >= CocoaError.fileWriteUnknown.rawValue ? "written" : "read"
            what = "it could not be \(verb)" + (posixCode(of: error).map { ": " + String(cString: strerror($0)) } ?? "")
        }
        return path.map { "\($0): \(what)" } ?? what
    }
}
