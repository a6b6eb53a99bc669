import Foundation
@testable import PracticeLog
import Testing

@Suite("ContentHash")
struct ContentHashTests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
    ])
    func matchesTheStandardVectors(_ text: String, _ expected: String) {
        #expect(ContentHash.sha256(of: Data(text.utf8)) == expected)
    }

    @Test func aFileReadInChunksHashesAsAWhole() throws {
        let bytes = Data((0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("hash-\(UUID().uuidString)")
        try bytes.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        var pieces = ContentHash()
        pieces.update(bytes.prefix(100))
        pieces.update(bytes.dropFirst(100))
        #expect(try ContentHash.sha256(of: url) == ContentHash.sha256(of: bytes))
        #expect(pieces.finish() == ContentHash.sha256(of: bytes))
    }
}
