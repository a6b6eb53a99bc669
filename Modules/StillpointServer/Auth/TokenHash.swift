import Crypto
import Foundation

/// The SHA-256 of a bearer token: what the store keeps instead of the token, and what presented tokens are
/// compared as, in constant time.
///
/// ```swift
/// let stored = TokenHash(of: token).hex   // 64 hexadecimal digits, in Practitioner.tokenHash
/// ```
public struct TokenHash: Sendable, Hashable {
    /// The 32 bytes of the digest.
    let bytes: [UInt8]

    public init(of token: String) {
        bytes = Array(SHA256.hash(data: Data(token.utf8)))
    }

    /// A stored hash, `nil` unless it is 64 hexadecimal digits.
    public init?(hex: String) {
        let digits = Array(hex.utf8)
        guard digits.count == 64 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        var index = 0
        while index < digits.count {
            guard let high = Self.value(of: digits[index]), let low = Self.value(of: digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        self.bytes = bytes
    }

    /// The hash as 64 lowercase hexadecimal digits.
    public var hex: String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }

    /// Whether the two hashes are equal, looking at every byte whatever the first difference.
    public func matches(_ other: TokenHash) -> Bool {
        guard bytes.count == other.bytes.count else { return false }
        var difference: UInt8 = 0
        for (mine, theirs) in zip(bytes, other.bytes) { difference |= mine ^ theirs }
        return difference == 0
    }

    private static func value(of digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
