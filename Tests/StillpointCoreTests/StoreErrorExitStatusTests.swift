import StillpointCore
import Testing

/// Every Stillpoint program ends with the same `sysexits.h` status on the same store error.
@Suite("store errors' exit statuses")
struct StoreErrorExitStatusTests {
    private struct Unreachable: StoreDriverError {
        var kind: StoreFailureKind { .unavailable }
        var description: String { "the server is away" }
        func message(at path: String) -> String { "\(path): \(description)" }
    }

    @Test func eachErrorHasItsStatus() {
        let path = "/tmp/store.sqlite"
        let expected: [(StoreError, Int32)] = [
            (.corrupt(path: path, detail: "page 3"), 65),
            (.needsUpgrade(path: path), 65),
            (.noStore(path: path), 66),
            (.specialFile(path: path, kind: "FIFO"), 66),
            (.driver(path: path, error: Unreachable()), 69),
            (.storeModuleMissing(path: path, module: "StillpointPostgres"), 70),
            (.missingDirectory(path: path), 73),
            (.readOnly(path: path), 73),
            (.diskFull(path: path), 74),
            (.permissionDenied(path: path, detail: "CREATE on schema public"), 77),
        ]
        for (error, status) in expected {
            #expect(error.exitStatus == status, "\(error)")
        }
    }

    @Test func aDriversKindNamesItsStatus() {
        let statuses = [StoreFailureKind.usage, .badData, .noInput, .unavailable, .ioError, .temporaryFailure].map(\.exitStatus)
        #expect(statuses == [64, 65, 66, 69, 74, 75])
    }
}
