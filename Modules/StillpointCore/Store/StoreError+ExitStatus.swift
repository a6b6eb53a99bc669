extension StoreError {
    /// The `sysexits.h` status a program ends with on this error, the same in `stillpoint` and `stillpoint-server`:
    /// 65 a store that cannot be used as it is, 66 no store there, 69 a server out of reach, 70 a store module
    /// missing from the program, 73 a store that cannot be made or written, 74 a failed read or write, 77 a right
    /// refused; a driver's error by its ``StoreFailureKind``.
    ///
    /// ```swift
    /// StoreError.noStore(path: "/tmp/none.sqlite").exitStatus   // 66
    /// ```
    public var exitStatus: Int32 {
        switch self {
        case .corrupt, .incompatibleSchema, .historyPurged, .newerVersion, .newerSchemaVersion, .needsUpgrade: 65
        case .noStore, .specialFile: 66
        case .storeModuleMissing: 70
        case .missingDirectory, .readOnlyDirectory, .readOnly: 73
        case .diskFull: 74
        case .permissionDenied: 77
        case .driver(_, let error): error.kind.exitStatus
        }
    }
}

extension StoreFailureKind {
    /// The `sysexits.h` status of a program that ends on a driver's error of this kind.
    public var exitStatus: Int32 {
        switch self {
        case .usage: 64
        case .badData: 65
        case .noInput: 66
        case .unavailable: 69
        case .ioError: 74
        case .temporaryFailure: 75
        }
    }
}
