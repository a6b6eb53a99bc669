import Foundation
import Hummingbird

/// Hummingbird's hello-world route, the `serve` suite's floor: what the HTTP stack alone answers on these cores.
///
///     bench-hello-server 8081   # GET http://127.0.0.1:8081/ answers "Hello, world!"; prints "ready PORT" when listening
@main
struct HelloServer {
    static func main() async throws {
        let port = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 0
        let router = Router()
        router.get("/") { _, _ in "Hello, world!" }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)),
                              onServerRunning: { channel in
                                  // The suite reads the port from this line (0 lets the system choose one).
                                  FileHandle.standardOutput.write(Data("ready \(channel.localAddress?.port ?? port)\n".utf8))
                              })
        try await app.runService()
    }
}
