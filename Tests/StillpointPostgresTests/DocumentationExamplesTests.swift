import Foundation
import StillpointTestSupport
import Testing

/// Every example of `StillpointPostgres.docc` is compiled by this target (docs/documentation-examples.md).
@Suite("Documentation examples")
struct DocumentationExamplesTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func everyExampleOfEveryArticleIsCompiledByThisTarget() throws {
        let found = try DocumentationExamples(catalog: Self.repository.appendingPathComponent("Modules/StillpointPostgres/StillpointPostgres.docc"),
                                              testTarget: Self.repository.appendingPathComponent("Tests/StillpointPostgresTests"))
        #expect(found.blocks >= 4)
        #expect(found.missing.isEmpty, "examples not compiled by StillpointPostgresTests:\n\(found.missing.joined(separator: "\n"))")
    }
}
