/// An error of a store's driver, carried by ``StoreError/driver(path:error:)``: each store module says in its
/// own words what went wrong with its database, and what kind of failure it is.
///
/// ```swift
/// enum MyStoreError: StoreDriverError {
///     case refused(String)
///     func message(at path: String) -> String { "\(path): mydb refused it: ..." }
///     var kind: StoreFailureKind { .unavailable }
/// }
/// throw StoreError.driver(path: location.displayPath, error: MyStoreError.refused("..."))
/// ```
public protocol StoreDriverError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The one-line message for the store at `path` (a path or a URI without its password): what was wrong,
    /// and what to do.
    func message(at path: String) -> String
    /// What kind of failure it is, for an exit status.
    var kind: StoreFailureKind { get }
}

extension StoreDriverError {
    public var description: String { message(at: "the store") }
}

/// The kinds of failure a driver's error reports, each an exit status of `sysexits.h` to a command-line tool.
public enum StoreFailureKind: Sendable, Hashable {
    /// The store's content is not what it should be (65).
    case badData
    /// Reading or writing the store failed (74).
    case ioError
    /// The store's server cannot be reached (69).
    case unavailable
    /// Try again later (75).
    case temporaryFailure
    /// The location is written wrong (64).
    case usage
    /// There is no store there (66).
    case noInput
}
