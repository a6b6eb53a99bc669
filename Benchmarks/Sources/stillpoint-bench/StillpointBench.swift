import Foundation

/// `stillpoint-bench`: runs the suites named on the command line and prints their tables or JSON.
@main
struct StillpointBench {
    static func main() async {
        // A child process of a workload, not a command for people: not in the usage.
        if CommandLine.arguments.dropFirst().first == LiveSuite.Writer.command {
            do {
                try await LiveSuite.Writer.run(arguments: Array(CommandLine.arguments.dropFirst(2)))
            } catch {
                fail("\(LiveSuite.Writer.command): \(error)", code: 1)
            }
            return
        }
        let options: BenchmarkOptions
        do {
            options = try BenchmarkOptions(arguments: Array(CommandLine.arguments.dropFirst()))
        } catch {
            fail("\(error)\n\n\(BenchmarkOptions.usage)", code: 64)
        }
        if options.help {
            print(BenchmarkOptions.usage)
            return
        }
        if options.list || options.suites.isEmpty {
            let width = SuiteRegistry.all.map(\.name.count).max() ?? 0
            let names = SuiteRegistry.all.map { suite in
                "  \(suite.name.padding(toLength: width, withPad: " ", startingAt: 0)) \(suite.summary)\n"
                    + "  \(String(repeating: " ", count: width)) workloads: \(suite.workloads.map(\.name).joined(separator: ", "))"
            }
            let text = "Suites:\n" + names.joined(separator: "\n")
            if options.list {
                print(text)
                return
            }
            fail("name a suite to run, or `all`.\n\n\(text)\n\n\(BenchmarkOptions.usage)", code: 64)
        }
        var suites: [any BenchmarkSuite] = []
        for name in options.suites {
            if name == "all" {
                suites += SuiteRegistry.all
            } else if let suite = SuiteRegistry.suite(named: name) {
                suites.append(suite)
            } else {
                fail("no suite named '\(name)'; the suites are: \(SuiteRegistry.all.map(\.name).joined(separator: ", "))", code: 64)
            }
        }

        if let workloads = options.workloads {
            let known = Set(suites.flatMap { $0.workloads.map(\.name) })
            for name in workloads where !known.contains(name) {
                fail("no workload named '\(name)' in \(suites.map(\.name).joined(separator: ", ")); "
                     + "the workloads are: \(known.sorted().joined(separator: ", "))", code: 64)
            }
        }

        let runner = BenchmarkRunner(options: options, log: { message in
            FileHandle.standardError.write(Data((message + "\n").utf8))
        })
        var all: [Measurement] = []
        for suite in suites {
            do {
                let measurements = try await runner.run(suite)
                all += measurements
                if !options.json {
                    print(suite.table(of: measurements, options: options))
                    print()
                }
            } catch {
                fail("\(suite.name) failed: \(error)", code: 1)
            }
        }
        if options.json {
            print(Measurement.jsonArray(all))
        }
    }

    static func fail(_ message: String, code: Int32) -> Never {
        FileHandle.standardError.write(Data("stillpoint-bench: \(message)\n".utf8))
        exit(code)
    }
}
