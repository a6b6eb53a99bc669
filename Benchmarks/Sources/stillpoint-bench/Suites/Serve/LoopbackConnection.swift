import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A blocking HTTP/1.1 connection to a port of the loopback address, kept alive between requests: the `serve`
/// suite's own client where wrk cannot do what it measures (a session posted and its event awaited on another
/// server, a first request timed alone). Plain sockets, so that nothing between the clock and the wire adds time.
///
/// ```swift
/// let connection = try LoopbackConnection(port: 8080)
/// let answer = try connection.send("GET", "/v1/practitioners/p00001/report", token: token)   // status, body
/// ```
final class LoopbackConnection {
    struct Response {
        let status: Int
        let body: [UInt8]
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    private let socket: Int32
    /// Bytes read past what was asked for so far.
    private var pending: [UInt8] = []
    let port: Int

    init(port: Int) throws {
        self.port = port
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw SessionBench.Failure("no socket for 127.0.0.1:\(port): errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(truncatingIfNeeded: port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let code = errno
            close(socket)
            throw SessionBench.Failure("cannot connect to 127.0.0.1:\(port): errno \(code)")
        }
        // Each request is one small write: without this, Nagle's algorithm would hold it back for the ack.
        var one: Int32 = 1
        setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    deinit {
        close(socket)
    }

    /// Sends a request and reads its whole answer (`Content-Length` or chunked).
    func send(_ method: String, _ path: String, token: String? = nil, body: String? = nil) throws -> Response {
        try write(request(method, path, token: token, body: body))
        let (status, headers) = try readHead()
        if let length = headers["content-length"].flatMap({ Int($0) }) {
            return Response(status: status, body: try read(count: length))
        }
        guard headers["transfer-encoding"]?.lowercased() == "chunked" else { return Response(status: status, body: []) }
        var body: [UInt8] = []
        while let chunk = try readChunk() { body += chunk }
        return Response(status: status, body: body)
    }

    /// Sends a `GET` of an event stream and reads its head: then ``nextEvent()`` reads the events one by one.
    func openEventStream(_ path: String, token: String) throws {
        try write(request("GET", path, token: token, body: nil, accept: "text/event-stream"))
        let (status, _) = try readHead()
        guard status == 200 else { throw SessionBench.Failure("GET \(path) answered \(status), not an event stream") }
    }

    /// The next event of a stream opened by ``openEventStream(_:token:)``: its `id:`, waiting for it.
    func nextEvent() throws -> Int64 {
        var text = pendingEvents
        pendingEvents = []
        while true {
            if let end = Self.find([10, 10], in: text) {
                let event = String(decoding: text[..<end], as: UTF8.self)
                text = Array(text[(end + 2)...])
                // A comment or a `retry:` alone (a keep-alive) is no report: read on.
                if let line = event.split(separator: "\n").first(where: { $0.hasPrefix("id: ") }), let id = Int64(line.dropFirst(4)) {
                    pendingEvents = text
                    return id
                }
                continue
            }
            guard let chunk = try readChunk() else { throw SessionBench.Failure("the event stream on port \(port) ended") }
            text += chunk
        }
    }

    /// Whether bytes wait to be read (an event sent meanwhile), without waiting for any.
    func hasInput() -> Bool {
        guard pending.isEmpty, pendingEvents.isEmpty else { return true }
        var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) > 0
    }

    /// Event text read past the last event returned.
    private var pendingEvents: [UInt8] = []

    private func request(_ method: String, _ path: String, token: String?, body: String?, accept: String = "application/json") -> String {
        var text = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: \(accept)\r\n"
        if let token { text += "Authorization: Bearer \(token)\r\n" }
        if let body { text += "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n" }
        return text + "\r\n" + (body ?? "")
    }

    private func write(_ text: String) throws {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { throw SessionBench.Failure("writing to 127.0.0.1:\(port) failed: errno \(errno)") }
            bytes = bytes.dropFirst(written)
        }
    }

    /// Reads more bytes into ``pending``; fails when the server closed the connection.
    private func fill() throws {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { throw SessionBench.Failure("127.0.0.1:\(port) closed the connection (errno \(errno))") }
        pending += buffer[..<count]
    }

    private func readLine() throws -> String {
        while true {
            if let end = Self.find([13, 10], in: pending) {
                let line = String(decoding: pending[..<end], as: UTF8.self)
                pending.removeFirst(end + 2)
                return line
            }
            try fill()
        }
    }

    private func read(count: Int) throws -> [UInt8] {
        while pending.count < count { try fill() }
        defer { pending.removeFirst(count) }
        return Array(pending[..<count])
    }

    /// The status and the headers (names in lowercase) of an answer.
    private func readHead() throws -> (Int, [String: String]) {
        let statusLine = try readLine()
        let parts = statusLine.split(separator: " ")
        guard parts.count >= 2, let status = Int(parts[1]) else { throw SessionBench.Failure("not an HTTP answer: \(statusLine.prefix(100))") }
        var headers: [String: String] = [:]
        while true {
            let line = try readLine()
            if line.isEmpty { return (status, headers) }
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
    }

    /// The next chunk of a chunked body, or `nil` after the last.
    private func readChunk() throws -> [UInt8]? {
        let sizeLine = try readLine()
        guard let size = Int(sizeLine.split(separator: ";").first ?? "", radix: 16) else {
            throw SessionBench.Failure("a chunk of size '\(sizeLine.prefix(20))' from 127.0.0.1:\(port)")
        }
        let chunk = try read(count: size)
        _ = try readLine()
        return size == 0 ? nil : chunk
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        for index in 0...(bytes.count - needle.count) where bytes[index] == needle[0] && Array(bytes[index..<(index + needle.count)]) == needle {
            return index
        }
        return nil
    }
}
