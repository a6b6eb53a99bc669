import Foundation

/// Turns a valid input into nearby broken ones, the way a fuzzer does: each choice, a number from a test's
/// random source, picks an edit (delete, repeat, splice a token, flip a character, cut) and where it goes.
///
/// ```swift
/// InputMutator(tokens: ["(", ")", " AND "]).mutate("kind == 'yoga'", choices: [7, 120, 3])
/// ```
public struct InputMutator: Sendable {
    /// Pieces of the input's language to splice in: keywords, brackets, YAML indicators.
    public var tokens: [String]
    /// The longest input made: edits that would grow past it are left out.
    public var maximumLength: Int

    public init(tokens: [String], maximumLength: Int = 16_384) {
        self.tokens = tokens
        self.maximumLength = maximumLength
    }

    /// `input` after one edit per choice.
    public func mutate(_ input: String, choices: [UInt32]) -> String {
        var scalars = Array(input.unicodeScalars)
        for choice in choices {
            let position = scalars.isEmpty ? 0 : Int(choice >> 3) % (scalars.count + 1)
            switch choice % 8 {
            case 0 where !scalars.isEmpty:
                // Delete a short run.
                let end = min(scalars.count, position + 1 + Int(choice >> 20) % 8)
                if position < end { scalars.removeSubrange(position..<end) }
            case 1, 2:
                let token = tokens.isEmpty ? " " : tokens[Int(choice >> 16) % tokens.count]
                insert(Array(token.unicodeScalars), at: position, into: &scalars)
            case 3:
                // Repeat a token many times: deep nesting, long chains.
                let token = tokens.isEmpty ? "(" : tokens[Int(choice >> 16) % tokens.count]
                let times = 1 + Int(choice >> 24) % 200
                insert(Array(String(repeating: token, count: times).unicodeScalars), at: position, into: &scalars)
            case 4 where position < scalars.count:
                // Flip a character to one of the interesting ones.
                let interesting: [Unicode.Scalar] = ["\0", "\n", "\t", "'", "\"", "\\", "%", "{", "[", ":", "-", "&", "*", "é", "\u{FEFF}"]
                scalars[position] = interesting[Int(choice >> 16) % interesting.count]
            case 5 where !scalars.isEmpty:
                // Duplicate a slice.
                let end = min(scalars.count, position + Int(choice >> 20) % 64)
                if position < end { insert(Array(scalars[position..<end]), at: position, into: &scalars) }
            case 6:
                scalars.removeSubrange(min(position, scalars.count)...)
            default:
                let digits = String(choice >> 8)
                insert(Array(digits.unicodeScalars), at: position, into: &scalars)
            }
        }
        return String(String.UnicodeScalarView(scalars))
    }

    private func insert(_ piece: [Unicode.Scalar], at position: Int, into scalars: inout [Unicode.Scalar]) {
        guard scalars.count + piece.count <= maximumLength else { return }
        scalars.insert(contentsOf: piece, at: min(position, scalars.count))
    }

    /// The checked-in fuzzing corpus of a target (`Fuzz/Corpus/<target>/`), the seeds the libFuzzer targets
    /// start from, read from the repository the tests were built from.
    public static func corpus(_ target: String, file: String = #filePath) -> [String] {
        var folder = URL(fileURLWithPath: file)
        while folder.path != "/" {
            folder.deleteLastPathComponent()
            let candidate = folder.appendingPathComponent("Fuzz/Corpus/\(target)")
            if let names = try? FileManager.default.contentsOfDirectory(atPath: candidate.path) {
                return names.sorted().compactMap { name in
                    (try? Data(contentsOf: candidate.appendingPathComponent(name))).map { String(decoding: $0, as: UTF8.self) }
                }
            }
        }
        return []
    }
}
