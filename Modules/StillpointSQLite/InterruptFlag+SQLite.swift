import GRDB
import GRDBSQLite
import StillpointCore

extension InterruptFlag {
    /// Runs `body` with the flag watched on `db`'s connection, which other contexts share at other times.
    func watching<T>(_ db: Database, _ body: () throws -> T) throws -> T {
        guard let connection = db.sqliteConnection else { return try body() }
        if isSet { throw CancellationError() }
        sqlite3_progress_handler(connection, 256, { flag in
            Unmanaged<InterruptFlag>.fromOpaque(flag!).takeUnretainedValue().isSet ? 1 : 0  // swiftlint:disable:this force_unwrapping: the pointer passed below
        }, Unmanaged.passUnretained(self).toOpaque())
        defer { sqlite3_progress_handler(connection, 0, nil, nil) }
        return try body()
    }
}
