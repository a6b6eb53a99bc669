import Foundation
import StillpointCore

/// The entity the `cancel` suite aggregates: a practice session with a start, a duration in seconds, a kind
/// and a free-text note.
///
/// Its table is `"_id" INTEGER PRIMARY KEY, "_version" INTEGER NOT NULL DEFAULT 1, "start" REAL NOT NULL,
/// "duration" INTEGER NOT NULL, "kind" TEXT NOT NULL, "note" TEXT NOT NULL`, made by Stillpoint itself (see
/// ``CancelFixture``); dates are stored as seconds since 1970.
enum Practice: Entity {
    static let start = Attribute<Date>("start")
    static let duration = Attribute<Int>("duration")
    static let kind = Attribute<String>("kind")
    static let note = Attribute<String>("note")
    static let entity = EntityDescription("Practice", attributes: [start, duration, kind, note])

    static let schema: Schema = {
        do {
            return try Schema([Practice.self])
        } catch {
            fatalError("the Practice schema is invalid: \(error)")
        }
    }()

    static let kinds = ["yoga", "meditation", "breathing", "walking", "yin"]

    /// The values of row `index`, the same in every run: starts 7 hours apart from 2020-01-01, durations from
    /// 5 to 60 minutes, and a note shared by every fourth row, so that grouping by it makes 250,000 groups of
    /// text to sort.
    static func row(_ index: Int) -> (start: Double, duration: Int, kind: String, note: String) {
        (1_577_836_800 + Double(index) * 25_200, 300 + (index * 37) % 3_300, kinds[index % kinds.count],
         "note \(index % 250_000)")
    }
}
