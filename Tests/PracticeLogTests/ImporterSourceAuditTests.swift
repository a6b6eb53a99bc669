import Foundation
import Testing

/// Keeps traps out of the code that reads files: everything in `Importing/` and `Sessions/` sees bytes a
/// person (or a broken export) chose. A new `try!`, `as!`, force unwrap or integer conversion fails here
/// until it is written safely (`Int(exactly:)`, `guard let`) or, once reviewed as unable to trap, listed below.
@Suite("Importer source audit")
struct ImporterSourceAuditTests {
    static let folders = ["Modules/PracticeLog/Importing", "Modules/PracticeLog/Sessions"]
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Integer conversions reviewed as total: each converts a value already bounded.
    static let reviewed = [
        // One decimal digit, after a check that the byte is one.
        #"Int(byte - UInt8(ascii: "0"))"#,
        "Int(bytes[index] - 48)",
        // A constant.
        "Int(maxDuration)",
        // After a check that the delimiter is ASCII.
        "UInt8(delimiter.value)",
        // Failable initializers: `nil` on bad text.
        "UInt32(name.dropFirst(2), radix: 16)",
        "UInt32(name.dropFirst(), radix: 10)",
    ]

    /// The code lines of every Swift file in the audited folders, without comments.
    static func codeLines() throws -> [(file: String, number: Int, text: String)] {
        var lines: [(String, Int, String)] = []
        for folder in folders {
            let directory = repository.appendingPathComponent(folder)
            for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) where name.hasSuffix(".swift") {
                let text = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
                for (index, line) in text.components(separatedBy: "\n").enumerated() {
                    let code = line.components(separatedBy: "//").first ?? ""
                    if !code.trimmingCharacters(in: .whitespaces).isEmpty { lines.append(("\(folder)/\(name)", index + 1, code)) }
                }
            }
        }
        return lines
    }

    @Test("no try!, as! or force unwrap")
    func noForcedOperations() throws {
        let lines = try Self.codeLines()
        #expect(lines.count > 500)
        let forceUnwrap = try Regex(#"[\w\)\]]!([^=]|$)"#)
        for line in lines {
            let text = line.text
            #expect(!text.contains("try!") && !text.contains("as!"), "\(line.file):\(line.number): \(text)")
            // A string may hold an exclamation mark; none of ours does.
            let forces = text.firstMatch(of: forceUnwrap) != nil
            #expect(!forces, "\(line.file):\(line.number): \(text)")
        }
    }

    @Test("integer conversions are exact or reviewed")
    func integerConversions() throws {
        let conversion = try Regex(#"\b(U?Int(8|16|32|64)?)\("#)
        for line in try Self.codeLines() {
            var rest = Substring(line.text)
            while let match = rest.firstMatch(of: conversion) {
                let call = rest[match.range.lowerBound...]
                let isSafe = call.dropFirst(rest[match.range].count).hasPrefix("exactly:")
                    || call.hasPrefix("UInt8(ascii:")
                    || Self.reviewed.contains { call.hasPrefix($0) }
                #expect(isSafe, "\(line.file):\(line.number): \(line.text)")
                rest = rest[match.range.upperBound...]
            }
        }
    }
}
