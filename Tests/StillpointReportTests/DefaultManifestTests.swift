import Foundation
import StillpointCatalog
import StillpointManifest
@testable import StillpointReport
import StillpointStatistics
import Testing

/// The manifest a report uses without `--config`, as the tool has it built in.
@Suite("DefaultManifest")
struct DefaultManifestTests {
    @Test func itPreparesEveryBuiltInStatistic() throws {
        let manifest = try Manifest(yaml: DefaultManifest.yaml, file: "the default manifest")
        let entries = try manifest.prepare(catalog: try BuiltInStatistics.catalog())
        #expect(Set(entries.map(\.id)) == Set(try BuiltInStatistics.catalog().ids))
        #expect(manifest.output.formats == [.text])
    }

    @Test func itIsTheCommentedFileAPersonCopies() {
        // The comments that explain each key are part of what is built in, not stripped by the build.
        #expect(DefaultManifest.yaml.hasPrefix("# The default report"))
        #expect(DefaultManifest.yaml.contains("# When a day begins."))
    }
}
