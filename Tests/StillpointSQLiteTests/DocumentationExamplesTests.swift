import Foundation
import StillpointTestSupport
import Testing

/// Every example of `StillpointSQLite.docc` is compiled by this target (docs/documentation-examples.md).
@Suite("Documentation examples")
struct DocumentationExamplesTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func everyExampleOfEveryArticleIsCompiledByThisTarget() throws {
        let found = try DocumentationExamples(catalog: Self.repository.appendingPathComponent("Modules/StillpointSQLite/StillpointSQLite.docc"),
                                              testTarget: Self.repository.appendingPathComponent("Tests/StillpointSQLiteTests"))
        #expect(found.blocks >= 5)
        #expect(found.missing.isEmpty, "examples not compiled by StillpointSQLiteTests:\n\(found.missing.joined(separator: "\n"))")
    }
}
