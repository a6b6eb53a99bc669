import Foundation
import Testing

/// The store seam as the code has it: the save, import and batch algorithm (and so the merge policies) lives in
/// the core alone, and each store supplies only its row writes.
@Suite("store seam audit")
struct StoreSeamAuditTests {
    /// The stores' modules, whose code writes rows but decides nothing about merging.
    static let storeModules = ["Modules/StillpointSQLite/", "Modules/StillpointPostgres/"]

    /// The lines of code (comments and strings left out) in `folders` that match `pattern`.
    static func lines(matching pattern: String, in folders: [String]) throws -> [String] {
        let expression = try NSRegularExpression(pattern: pattern)
        return try TrapAuditTests.sources().filter { source in folders.contains { source.path.hasPrefix($0) } }.flatMap { source in
            source.code.indices.compactMap { index -> String? in
                let line = source.code[index]
                guard expression.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) != nil else { return nil }
                return "\(source.path):\(index + 1): \(source.lines[index].trimmingCharacters(in: .whitespaces))"
            }
        }
    }

    /// A store that switched over the merge policies would hold a copy of how a save or batch settles a clash.
    @Test func noStoreNamesAMergePolicy() throws {
        let found = try Self.lines(matching: #"\.(mergeByPropertyObjectTrump|mergeByPropertyStoreTrump|overwrite|rollback)\b"#,
                                   in: Self.storeModules)
        #expect(found.isEmpty, "a store decides a merge policy's outcome itself:\n\(found.joined(separator: "\n"))")
    }

    /// Every store writes saves, imports and batches through the core's algorithm over its row writes.
    @Test func everyStoreWritesThroughTheCoresAlgorithm() throws {
        for module in Self.storeModules {
            let found = try Self.lines(matching: #"\b(transaction|batch)\.run\(rows:"#, in: [module])
            #expect(found.count == 3, "\(module) should run the save, the batch and the import through the core: \(found)")
        }
    }

    /// The core names no engine: each store module supplies its SQL spelling, its locations and its errors, so a
    /// third store needs no edit of the core. Comments and documentation may name the stores; code and the
    /// messages it shows may not.
    @Test func theCoreNamesNoEngine() throws {
        let expression = try NSRegularExpression(pattern: #"(?i)sqlite|postgres|grdb|libpq"#)
        let core = try TrapAuditTests.sources().filter { $0.path.hasPrefix("Modules/StillpointCore/") }
        #expect(core.count > 100, "the core's sources were not found: \(core.count) files")
        let found = core.flatMap { source in
            source.codeAndStrings.indices.compactMap { index -> String? in
                let line = source.codeAndStrings[index]
                guard expression.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) != nil else { return nil }
                return "\(source.path):\(index + 1): \(source.lines[index].trimmingCharacters(in: .whitespaces))"
            }
        }
        #expect(found.isEmpty, "the core names an engine outside comments:\n\(found.joined(separator: "\n"))")
    }

    /// What the audit reads: code and strings, not comments.
    @Test func theEngineAuditReadsStringsButNotComments() {
        let source = SwiftSource(path: "x.swift", text: "let a = \"SQLite\" // PostgreSQL\n/// GRDB\nlet b = 1")
        #expect(source.codeAndStrings[0].contains("SQLite"))
        #expect(!source.codeAndStrings[0].contains("PostgreSQL"))
        #expect(!source.codeAndStrings[1].contains("GRDB"))
        #expect(!source.code[0].contains("SQLite"))
    }
}
