import Foundation
import FuzzSupport
import StillpointCatalog
import StillpointManifest
import StillpointStatistics

/// Reads one input as a report manifest, the way `stillpoint validate` and `stillpoint report` do: validation
/// (every problem of the text and of the entries), then loading and preparing each entry against the built-in
/// statistics, which parses every statistic's parameters and every custom statistic's predicate. A list of
/// problems or a thrown `ManifestErrors` is an answer; a trap, a sanitizer report or a hang is a bug.
let catalog: StatisticCatalog = {
    do {
        return try BuiltInStatistics.catalog()
    } catch {
        fatalError("the built-in statistics do not form a catalog: \(error)")
    }
}()

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzManifest(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let yaml = String(decoding: Fuzzer.bytes(start, count), as: UTF8.self)
    for problem in Manifest.validate(yaml: yaml, file: "fuzz.yaml", catalog: catalog) {
        _ = problem.description
    }
    guard let manifest = try? Manifest(yaml: yaml, file: "fuzz.yaml") else { return 0 }
    _ = manifest.storeURL
    do {
        for entry in try manifest.prepare(catalog: catalog) {
            _ = (entry.id, entry.name)
        }
    } catch {
        _ = error.description
    }
    return 0
}
