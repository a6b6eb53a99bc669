import Foundation
import Testing

/// End to end: an argument whose bytes are not UTF-8 (a Latin-1 file name) is refused as such, with its bytes
/// shown, instead of being read as the name of another file that "does not exist".
@Suite("arguments that are not UTF-8", .serialized)
struct ArgumentEncodingTests {
    /// Runs the tool through the shell, which passes `printf`'s bytes through as they are (a child process's
    /// arguments are Swift strings, which cannot hold them).
    static func run(_ script: String, in tool: ToolRunner) throws -> ToolRunner.Result {
        try tool.start(["-c", script, ToolRunner.executable.path], executable: "/bin/sh").waitForResult()
    }

    @Test func aLatin1FileNameIsRefusedAsNotUTF8NotAsMissing() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        _ = try await ReportCommandTests.makeStore(tool)
        // café.csv and café.sqlite, with é as Latin-1's single byte E9; both exist.
        let create = try Self.run(#"printf 'start,duration\n2025-06-01T06:00:00Z,1200\n' > "$(printf 'caf\351.csv')" && cp practice.sqlite "$(printf 'caf\351.sqlite')""#,
                                  in: tool)
        #expect(create.status == 0, "\(create.standardError)")
        let cases = [
            #""$0" import "$(printf 'caf\351.csv')" --format csv --store practice.sqlite"#,
            #""$0" report --store "$(printf 'caf\351.sqlite')""#,
            #""$0" check --store "$(printf 'caf\351.sqlite')""#,
            #""$0" validate "$(printf 'caf\351.yaml')""#,
        ]
        for script in cases {
            let result = try Self.run(script, in: tool)
            #expect(result.status == 64, "\(script): \(result.status) \(result.standardError)")
            #expect(result.standardError.contains(#""caf\xE9."#), "\(result.standardError)")
            #expect(result.standardError.contains("is not valid UTF-8"), "\(result.standardError)")
            #expect(!result.standardError.contains("no such file") && !result.standardError.contains("there is no"),
                    "\(result.standardError)")
            #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
        }
        // The way round it the message gives: the export on standard input.
        let piped = try Self.run(#""$0" import - --format csv --store practice.sqlite < "$(printf 'caf\351.csv')""#, in: tool)
        #expect(piped.status == 0, "\(piped.standardError)")
        #expect(piped.standardOutput.contains("1 new"), "\(piped.standardOutput)")
    }
}
