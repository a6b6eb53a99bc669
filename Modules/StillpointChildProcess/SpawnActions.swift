import Foundation

/// `posix_spawn`'s file actions and attributes, with glibc's extensions that Swift's `Glibc` module does not
/// declare (`closefrom` and `chdir` in the child, glibc 2.34 and 2.29) looked up by name.
struct SpawnActions {
    private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private typealias ChangeDirectory = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32

    private var actions = posix_spawn_file_actions_t()

    init() {
        posix_spawn_file_actions_init(&actions)
    }

    mutating func destroy() {
        posix_spawn_file_actions_destroy(&actions)
    }

    mutating func open(_ descriptor: Int32, _ path: String, _ flags: Int32) {
        posix_spawn_file_actions_addopen(&actions, descriptor, path, flags, 0o644)
    }

    mutating func duplicate(_ descriptor: Int32, to target: Int32) {
        posix_spawn_file_actions_adddup2(&actions, descriptor, target)
    }

    mutating func closeFrom(_ lowest: Int32) throws {
        let closeFrom = try Self.function("posix_spawn_file_actions_addclosefrom_np", as: CloseFrom.self)
        try Self.check(closeFrom(&actions, lowest), "closefrom")
    }

    mutating func changeDirectory(_ directory: String) throws {
        let changeDirectory = try Self.function("posix_spawn_file_actions_addchdir_np", as: ChangeDirectory.self)
        try Self.check(changeDirectory(&actions, directory), "chdir \(directory)")
    }

    /// Starts the child with default signal handlers and an empty signal mask (a parent that ignores SIGPIPE must
    /// not pass that on), and returns its process id.
    mutating func spawn(_ executable: String, _ arguments: [String], environment: [String]?) throws -> pid_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var all = sigset_t(), none = sigset_t()
        sigfillset(&all)
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let envp = environment.map { $0.map { strdup($0) } + [nil] }
        defer { envp?.forEach { free($0) } }
        var child: pid_t = 0
        let spawned = envp.map { posix_spawnp(&child, executable, &actions, &attributes, argv, $0) }
            ?? posix_spawnp(&child, executable, &actions, &attributes, argv, environ)
        try Self.check(spawned, "start \(executable)")
        return child
    }

    private static func function<F>(_ name: String, as type: F.Type) throws -> F {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else {
            throw ChildProcessError(description: "this C library has no \(name) (glibc 2.34 or later has it)")
        }
        return unsafeBitCast(symbol, to: type)
    }

    private static func check(_ result: Int32, _ what: String) throws {
        guard result == 0 else { throw ChildProcessError(description: "cannot \(what): \(String(cString: strerror(result)))") }
    }
}
