import Foundation
import Testing
@testable import StillpointServer

/// The administrator's token: from a file or the environment, long enough, never in a message.
@Suite("administrator token")
struct AdminTokenTests {
    static let token = "0123456789abcdef0123456789abcdef-admin"

    @Test func aFileWinsOverTheEnvironmentAndLosesItsNewline() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("admin-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        try "\(Self.token)\n".write(to: file, atomically: true, encoding: .utf8)
        let fromFile = try #require(try AdminToken(file: file.path, environment: [AdminToken.environmentVariable: "other-token-other-token-other-token"]))
        #expect(fromFile.matches(TokenHash(of: Self.token)))
        let fromEnvironment = try #require(try AdminToken(file: nil, environment: [AdminToken.environmentVariable: Self.token]))
        #expect(fromEnvironment.matches(TokenHash(of: Self.token)))
        #expect(try AdminToken(file: nil, environment: [:]) == nil)
    }

    @Test func shortOrUnreadableTokensAreRefusedWithoutShowingThem() throws {
        #expect(throws: AdminTokenError.tooShort(origin: AdminToken.environmentVariable)) {
            try AdminToken(file: nil, environment: [AdminToken.environmentVariable: "secret"])
        }
        #expect(AdminTokenError.tooShort(origin: "x").description.contains("openssl rand"))
        #expect(throws: AdminTokenError.whiteSpace(origin: "x")) { try AdminToken("0123456789abcdef 0123456789abcdef", from: "x") }
        #expect(throws: AdminTokenError.unreadable(file: "/nonexistent/admin")) {
            try AdminToken(file: "/nonexistent/admin", environment: [:])
        }
    }
}
