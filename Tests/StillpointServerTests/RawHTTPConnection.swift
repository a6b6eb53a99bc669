import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A TCP connection to a server on the loopback address that sends and reads bytes as the test says, for what
/// URLSession hides: a request whose body is sent later (a request in flight), and an event stream read as it
/// comes, up to the server's end of it.
///
/// ```swift
/// let connection = try RawHTTPConnection(port: server.port)
/// try connection.send("GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")
/// let answer = connection.read(seconds: 30) { String(decoding: $0, as: UTF8.self).contains("\r\n\r\n") }
/// ```
final class RawHTTPConnection {
    private let descriptor: Int32
    /// Everything read so far.
    private(set) var received = Data()
    /// Whether the server closed its side.
    private(set) var isClosedByServer = false

    var text: String { String(decoding: received, as: UTF8.self) }

    init(port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw ServerTestFailure("cannot make a socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(clamping: port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw ServerTestFailure("cannot connect to port \(port): \(reason)")
        }
    }

    deinit {
        close(descriptor)
    }

    func send(_ text: String) throws {
        try send(Data(text.utf8))
    }

    func send(_ data: Data) throws {
        try data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let sent = Glibc.send(descriptor, bytes.baseAddress.map { $0 + offset }, bytes.count - offset, Int32(MSG_NOSIGNAL))
                guard sent > 0 else { throw ServerTestFailure("cannot send: \(String(cString: strerror(errno)))") }
                offset += sent
            }
        }
    }

    /// Reads until `done` holds for what was received, the server closes the connection, or `seconds` pass;
    /// returns whether `done` holds.
    @discardableResult
    func read(seconds: Double, until done: (Data) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while !done(received), !isClosedByServer, Date() < deadline {
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 100) > 0 else { continue }
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count > 0 {
                received.append(contentsOf: buffer[0..<count])
            } else if count == 0 || errno != EINTR {
                isClosedByServer = true
            }
        }
        return done(received)
    }

    /// Reads until the server closes the connection, for up to `seconds`; returns whether it did.
    func readToEnd(seconds: Double) -> Bool {
        read(seconds: seconds) { _ in false }
        return isClosedByServer
    }

    /// The status of the answer received, once its status line is in.
    var status: Int? {
        guard let line = text.split(separator: "\r\n", maxSplits: 1).first, line.hasPrefix("HTTP/1.1 ") else { return nil }
        return Int(line.dropFirst(9).prefix(3))
    }

    /// The body of a chunked answer so far (`Transfer-Encoding: chunked`, as an event stream is sent), and whether
    /// its last chunk came: the server ended the body properly rather than dropping the connection.
    var chunkedBody: (body: String, isComplete: Bool) {
        let bytes = Array(received)
        guard let start = Self.range(of: Array("\r\n\r\n".utf8), in: bytes, from: 0)?.upperBound else { return ("", false) }
        var body: [UInt8] = []
        var index = start
        while let line = Self.range(of: [13, 10], in: bytes, from: index) {
            guard let size = Int(String(decoding: bytes[index..<line.lowerBound], as: UTF8.self), radix: 16) else { break }
            if size == 0 { return (String(decoding: body, as: UTF8.self), true) }
            guard line.upperBound + size + 2 <= bytes.count else { break }
            body += bytes[line.upperBound..<(line.upperBound + size)]
            index = line.upperBound + size + 2
        }
        return (String(decoding: body, as: UTF8.self), false)
    }

    private static func range(of needle: [UInt8], in bytes: [UInt8], from start: Int) -> Range<Int>? {
        guard start <= bytes.count - needle.count else { return nil }
        for index in start...(bytes.count - needle.count) where Array(bytes[index..<(index + needle.count)]) == needle {
            return index..<(index + needle.count)
        }
        return nil
    }
}
