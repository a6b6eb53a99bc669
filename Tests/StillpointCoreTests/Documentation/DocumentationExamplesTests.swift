import Foundation
import StillpointTestSupport
import Testing

/// Every example of the core's DocC articles is compiled: each `swift` block of each article in
/// `StillpointCore.docc` must appear, line for line (indentation and blank lines aside), in a Swift file of this
/// test target, where the compiler checks it and a test runs it. An example pasted into a comment does not count:
/// its lines start with `//` there.
///
/// The examples of an article live in a file named after it (`Documentation/OperationsArticleTests.swift`, or the
/// older `LiveResultsArticleTests.swift`), as real code inside a function or type that gives it what it uses.
@Suite("Documentation examples")
struct DocumentationExamplesTests {
    static let catalog = ArticleExamples.repository.appendingPathComponent("Modules/StillpointCore/StillpointCore.docc")
    static let testTarget = ArticleExamples.repository.appendingPathComponent("Tests/StillpointCoreTests")

    /// The lines of every Swift file of this test target, file by file.
    static func testSources() throws -> [[String]] {
        let files = FileManager.default.enumerator(at: testTarget, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        return try files.map { DocumentationExamples.lines(try String(contentsOf: $0, encoding: .utf8)) }
    }

    /// Whether `block`'s lines appear in a row in one of `sources`.
    static func isCompiled(_ block: String, in sources: [[String]]) -> Bool {
        DocumentationExamples.isCompiled(block, in: sources)
    }

    @Test func everyExampleOfEveryArticleIsCompiledByThisTarget() throws {
        let found = try DocumentationExamples(catalog: Self.catalog, testTarget: Self.testTarget)
        #expect(found.blocks >= 40)
        #expect(found.missing.isEmpty, "examples not compiled by StillpointCoreTests; copy each into the article's examples file as real code:\n\(found.missing.joined(separator: "\n"))")
    }

    /// The sources whose doc comments' examples are compiled here too; the rest are not yet
    /// (docs/documentation-examples.md).
    static let compiledDocComments = ["Modules/StillpointCore/Operations/ContextOperation.swift"]

    /// The `swift` blocks of the doc comments (`///`) of `source`.
    static func docCommentBlocks(of source: String) -> [String] {
        var blocks: [String] = []
        var block: [String]?
        for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("///") else { continue }
            let text = trimmed.dropFirst(3).hasPrefix(" ") ? String(trimmed.dropFirst(4)) : String(trimmed.dropFirst(3))
            if block == nil, text == "```swift" {
                block = []
            } else if let lines = block, text == "```" {
                blocks.append(lines.joined(separator: "\n"))
                block = nil
            } else {
                block?.append(text)
            }
        }
        return blocks
    }

    @Test func everyExampleOfTheCompiledDocCommentsIsCompiledByThisTarget() throws {
        let sources = try Self.testSources()
        var missing: [String] = []
        for path in Self.compiledDocComments {
            let text = try String(contentsOf: ArticleExamples.repository.appendingPathComponent(path), encoding: .utf8)
            let blocks = Self.docCommentBlocks(of: text)
            #expect(!blocks.isEmpty, "\(path) has no example")
            missing += blocks.filter { !Self.isCompiled($0, in: sources) }.map { "\(path):\n\($0)" }
        }
        #expect(missing.isEmpty, "doc comment examples not compiled by StillpointCoreTests:\n\(missing.joined(separator: "\n"))")
    }

    @Test func aDocCommentsBlocksAreReadWithoutTheirSlashes() {
        let source = "/// Text.\n///\n/// ```swift\n/// let a = 1\n///     .description\n/// ```\nfunc f() {}\n"
        #expect(Self.docCommentBlocks(of: source) == ["let a = 1\n    .description"])
    }

    @Test func anExampleChangedInTheArticleButNotInTheCodeIsFound() throws {
        let sources = [DocumentationExamples.lines("let a = 1\n    let b = a + 1\n")]
        #expect(Self.isCompiled("let a = 1\nlet b = a + 1\n", in: sources))
        #expect(!Self.isCompiled("let a = 1\nlet b = a + 2\n", in: sources))
        #expect(!Self.isCompiled("let a = 1\n", in: [DocumentationExamples.lines("/// let a = 1\n")]))
    }
}
