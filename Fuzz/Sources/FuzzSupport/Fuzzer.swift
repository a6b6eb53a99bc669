import CFuzzer
import Foundation

/// libFuzzer's entry points for the fuzz targets.
///
/// Each target defines its test as `@_cdecl("LLVMFuzzerTestOneInput")` and its `main.swift` calls ``run()``.
/// SwiftPM links an executable's `main` to the module's own top-level code, so libFuzzer's `main` cannot be
/// relied on to run; ``run()`` starts libFuzzer's driver itself, which reads libFuzzer's flags and corpus
/// folders from the command line.
///
/// ```swift
/// // main.swift
/// Fuzzer.run()
/// ```
public enum Fuzzer {
    public static func run() -> Never {
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, LLVMFuzzerTestOneInput))
    }

    /// The input as a buffer; libFuzzer may pass a null pointer for the empty input.
    public static func bytes(_ start: UnsafePointer<UInt8>?, _ count: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: start, count: start == nil ? 0 : count)
    }
}
