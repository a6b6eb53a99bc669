import ArgumentParser

/// The tool's exit statuses, from `sysexits.h`, so that scripts can tell a mistake from a failure.
///
/// ```swift
/// throw ToolFailure("no store at \(path); make one with `stillpoint import` or `stillpoint demo`", status: .noInput)
/// ```
enum ExitStatus: Int32, CaseIterable, Sendable {
    /// A statistic failed, or an import or export did not complete.
    case failure = 1
    /// The command line was wrong (`EX_USAGE`).
    case usage = 64
    /// A file, manifest or store held data that cannot be used (`EX_DATAERR`).
    case dataError = 65
    /// A file or store that was named does not exist or cannot be read (`EX_NOINPUT`).
    case noInput = 66
    /// A database server cannot be reached (`EX_UNAVAILABLE`).
    case unavailable = 69
    /// A bug in the tool (`EX_SOFTWARE`).
    case software = 70
    /// An output file cannot be created (`EX_CANTCREAT`).
    case cannotCreate = 73
    /// Reading or writing failed part-way (`EX_IOERR`).
    case ioError = 74
    /// The database server cancelled a statement (a statement timeout, an administrator): trying again later
    /// may succeed (`EX_TEMPFAIL`).
    case temporaryFailure = 75
    /// The database server refused a right the store needs (`EX_NOPERM`).
    case noPermission = 77
    /// Stopped by Ctrl-C.
    case interrupted = 130

    var exitCode: ExitCode { ExitCode(rawValue) }
}
