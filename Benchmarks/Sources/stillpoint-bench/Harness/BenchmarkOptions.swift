/// The command line: `stillpoint-bench <suite>... [--json] [--runs 5] [--warmup 1] [--n 500,5000] [--store file,memory,postgres]`.
struct BenchmarkOptions: Sendable {
    var suites: [String] = []
    var json = false
    /// Measured runs per case; the tables and JSON report their medians.
    var runs = 5
    /// Unreported runs per case before the measured ones, to warm caches and the allocator.
    var warmup = 1
    /// Sizes to measure instead of each suite's own.
    var sizes: [Int]?
    /// Stores to measure instead of each suite's own.
    var stores: [StoreKind]?
    /// Workloads to measure instead of all of each suite's.
    var workloads: [String]?
    var list = false
    var help = false
    /// Each suite once at its smoke size and stores, no warm-up: whether every workload still runs and checks its
    /// results, not how fast (CI runs it).
    var smoke = false

    static let usage = """
        USAGE: stillpoint-bench <suite>... [options]

        Runs benchmark suites (`all` for every suite) and prints their tables, or JSON with --json.

        OPTIONS:
          --json             Print a JSON array of measurements instead of tables.
          --runs <count>     Measured runs per case; medians are reported (default 5).
          --warmup <count>   Unreported runs per case before the measured ones (default 1).
          --n <sizes>        Sizes to measure, comma-separated (default: each suite's own), e.g. --n 500,5000.
          --store <stores>   Stores to measure, comma-separated: file, memory, postgres (default: each suite's own).
                             postgres starts a throwaway server, or uses the one STILLPOINT_BENCH_POSTGRES names.
          --workload <names> Workloads to measure, comma-separated (default: all of each suite's).
          --smoke            Run each case once at the suite's small smoke size and stores, without warm-up:
                             checks that every workload runs and computes what it should; times mean nothing.
          --list             List the suites.
          -h, --help         Show this help.
        """

    struct UsageError: Error, CustomStringConvertible {
        let description: String
    }

    init() {}

    init(arguments: [String]) throws(UsageError) {
        var remaining = arguments[...]
        func value(of option: String) throws(UsageError) -> String {
            guard let value = remaining.popFirst(), !value.hasPrefix("--") else {
                throw UsageError(description: "\(option) needs a value")
            }
            return value
        }
        func count(of option: String, minimum: Int) throws(UsageError) -> Int {
            let text = try value(of: option)
            guard let number = Int(text), number >= minimum else {
                throw UsageError(description: "\(option) takes a whole number of at least \(minimum), not '\(text)'")
            }
            return number
        }
        while let argument = remaining.popFirst() {
            switch argument {
            case "--json": json = true
            case "--runs": runs = try count(of: argument, minimum: 1)
            case "--warmup": warmup = try count(of: argument, minimum: 0)
            case "--n":
                let text = try value(of: argument)
                let sizes = text.split(separator: ",").map { Int($0.replacingOccurrences(of: "_", with: "")) }
                guard !sizes.isEmpty, sizes.allSatisfy({ ($0 ?? 0) > 0 }) else {
                    throw UsageError(description: "--n takes positive sizes separated by commas, such as 500,5000; not '\(text)'")
                }
                self.sizes = sizes.compactMap { $0 }
            case "--store":
                let text = try value(of: argument)
                let stores = text.split(separator: ",").map { StoreKind(rawValue: String($0)) }
                guard !stores.isEmpty, stores.allSatisfy({ $0 != nil }) else {
                    throw UsageError(description: "--store takes file, memory or postgres, several separated by commas; not '\(text)'")
                }
                self.stores = stores.compactMap { $0 }
            case "--workload":
                workloads = try value(of: argument).split(separator: ",").map(String.init)
            case "--list": list = true
            case "--smoke":
                smoke = true
                runs = 1
                warmup = 0
            case "-h", "--help": help = true
            default:
                guard !argument.hasPrefix("-") else { throw UsageError(description: "unknown option '\(argument)'") }
                suites.append(argument)
            }
        }
    }
}
