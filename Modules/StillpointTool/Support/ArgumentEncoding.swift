import Foundation

/// Refuses a command-line argument whose bytes are not UTF-8, such as a file name made on a Latin-1 system.
///
/// Swift reads each argument as a string and replaces bytes that are not UTF-8 with U+FFFD, so such a name
/// would silently become the name of another file, one that does not exist. A Swift string cannot hold those
/// bytes, and every file a command names passes through one; so the argument is refused, with its bytes shown
/// and what to do, instead of "no such file".
///
/// ```swift
/// try ArgumentEncoding.refuseInvalidUTF8()
/// // ToolFailure: "argument 2, "caf\xE9.csv", is not valid UTF-8 ..." (64)
/// ```
enum ArgumentEncoding {
    static func refuseInvalidUTF8(_ arguments: [[UInt8]] = rawArguments()) throws {
        for (index, bytes) in arguments.enumerated().dropFirst() where String(validating: bytes, as: UTF8.self) == nil {
            throw ToolFailure("argument \(index), \"\(escaped(bytes))\", is not valid UTF-8 (the bytes shown as \\x.. are not), "
                              + "so Stillpoint cannot name a file by it; rename the file to a UTF-8 name (convmv -f latin1 "
                              + "-t utf8 --notest FILE), or give an export on standard input (stillpoint import - --format ... < FILE)",
                              status: .usage)
        }
    }

    /// The arguments as the process received them, program name first, before Swift decodes them.
    static func rawArguments() -> [[UInt8]] {
        (0..<Int(CommandLine.argc)).map { index in
            guard let pointer = CommandLine.unsafeArgv[index] else { return [] }
            return Array(UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self),
                                             count: strlen(pointer)))
        }
    }

    /// Printable ASCII as it is; every other byte as `\xHH`, so that the message shows exactly what was given
    /// and no control character reaches the terminal.
    static func escaped(_ bytes: [UInt8]) -> String {
        bytes.map { byte in
            (0x20..<0x7F).contains(byte) && byte != UInt8(ascii: "\\") ? String(UnicodeScalar(byte))
                : String(format: "\\x%02X", byte)
        }.joined()
    }
}
