import Foundation
import StillpointChildProcess
import Testing

/// Runs the compiler on a snippet against the built StillpointCore module: how the tests prove that something
/// does not compile.
///
/// ```swift
/// let diagnostics = try CompilerCheck.typecheck("import StillpointCore\nlet x: Int = \"a\"")
/// #expect(diagnostics.contains("error:"))
/// ```
enum CompilerCheck {
    /// Type-checks `source` in Swift 6 mode and returns the compiler's diagnostics (empty when it compiles).
    static func typecheck(_ source: String) throws -> String {
        // The test binary sits in <scratch>/<triple>/debug; the modules and checkouts are beside it.
        let products = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let scratch = products.deletingLastPathComponent().deletingLastPathComponent()
        let moduleMap = scratch.appendingPathComponent("checkouts/GRDB.swift/Sources/GRDBSQLite/module.modulemap")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("typecheck-\(UUID().uuidString).swift")
        try source.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try ChildProcess("/usr/bin/env", ["swiftc", "-typecheck", "-swift-version", "6",
                                                       "-I", products.appendingPathComponent("Modules").path,
                                                       "-Xcc", "-fmodule-map-file=\(moduleMap.path)", file.path],
                                      standardOutput: .collected, standardError: .standardOutput).waitForResult()
        let diagnostics = result.standardOutput
        #expect(!diagnostics.contains("no such module"), "\(diagnostics)")
        return diagnostics
    }
}
