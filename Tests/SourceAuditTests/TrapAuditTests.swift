import Foundation
import Testing

/// No `try!`, force unwrap, force cast or trapping conversion in the project's modules and plugins, where
/// they could be reached from a file, a manifest, an argument or a store's contents.
@Suite("trap audit")
struct TrapAuditTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The sources the audit reads: everything that ships, and the examples people copy from; not tests,
    /// benchmarks, or an example's build folder.
    static func sources() throws -> [SwiftSource] {
        var sources: [SwiftSource] = []
        for folder in ["Modules", "Plugins", "Examples"] {
            let root = repository.appendingPathComponent(folder)
            guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil, options: [.skipsHiddenFiles])
            else { continue }
            for case let url as URL in walker where url.pathExtension == "swift" {
                let relative = String(url.path.dropFirst(repository.path.count + 1))
                guard !relative.split(separator: "/").contains("Tests") else { continue }
                sources.append(SwiftSource(path: relative, text: try String(contentsOf: url, encoding: .utf8)))
            }
        }
        return sources.sorted { $0.path < $1.path }
    }

    static func violations(of rule: TrapRule, in source: SwiftSource) -> [String] {
        let expression = try? NSRegularExpression(pattern: rule.pattern)
        guard rule.applies(to: source.path) else { return [] }
        return source.code.indices.compactMap { index in
            let line = source.code[index]
            let range = NSRange(line.startIndex..., in: line)
            guard expression?.firstMatch(in: line, range: range) != nil, !source.exempts(line: index, from: rule.identifier)
            else { return nil }
            return "\(source.path):\(index + 1): \(rule.identifier): \(rule.summary)\n    \(source.lines[index].trimmingCharacters(in: .whitespaces))"
        }
    }

    @Test(arguments: TrapRule.all.map(\.identifier))
    func noSourceCanTrap(_ identifier: String) throws {
        let rule = try #require(TrapRule.all.first { $0.identifier == identifier })
        let sources = try Self.sources()
        #expect(sources.count > 100, "the audit found only \(sources.count) source files under \(Self.repository.path)")
        let found = sources.flatMap { Self.violations(of: rule, in: $0) }
        #expect(found.isEmpty, "\(found.count) lines can trap:\n\(found.joined(separator: "\n"))")
    }

    @Test func theRulesFindWhatTheyLookFor() {
        let text = """
            let a = try! load()
            let b = value as! String
            let c = table[key]!.count
            let d = Int(seconds.rounded())
            let e = Int(exactly: seconds.rounded())
            let f = a != b && !flag // a comment with x! and try!
            let g = "a string with y! and try! in it"
            let h = optional!
            let i = table[key]! // swiftlint:disable:this force_unwrapping
            precondition(count >= 1, "at least one")
            guard let j = k else { fatalError("no k") }
            preconditionFailure("unreachable") // swiftlint:disable:this runtime_trap: the switch above covers every case
            assert(count >= 1)
            """
        let source = SwiftSource(path: "Example.swift", text: text)
        let flagged = TrapRule.all.map { rule in (rule.identifier, Self.violations(of: rule, in: source).map { $0.split(separator: ":")[1] }) }
        #expect(flagged.map(\.0) == ["force_try", "force_cast", "force_unwrapping", "trapping_conversion", "integer_conversion", "runtime_trap"])
        #expect(flagged.map { $0.1.map(String.init) } == [["1"], ["2"], ["3", "8"], ["4"], [], ["10", "11"]])
        let importer = SwiftSource(path: "Modules/PracticeLog/Importing/Example.swift", text: text)
        #expect(Self.violations(of: .integerConversion, in: importer).map { $0.split(separator: ":")[1] } == ["4"])
    }
}
