// swift-tools-version:6.1
import PackageDescription

/// `stillpoint-bench`: Stillpoint's benchmark suites, a package of its own so that the main package's build and
/// tests never pay for it. Run it in release mode:
///
///     swift run -c release --package-path Benchmarks stillpoint-bench seed004
let package = Package(
    name: "StillpointBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Stillpoint", path: ".."),
        // The same GRDB as the main package: its GRDBSQLite product is the raw SQLite C API the baselines use.
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        // The same Hummingbird as `stillpoint-server`: the `serve` suite's hello-world server is its floor.
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1"),
    ],
    targets: [
        // libpq for the PostgreSQL baselines, declared here so that they call the C client directly, as an app
        // without Stillpoint would.
        .systemLibrary(
            name: "CLibPQBaseline",
            path: "Sources/CLibPQBaseline",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]),
        // Valgrind's callgrind client requests, to count the instructions of each timed region.
        .target(name: "CCallgrind", path: "Sources/CCallgrind"),
        // glibc's allocator statistics (`mallinfo2`), for the memory a workload holds rather than what is resident.
        .target(name: "CMallocStatistics", path: "Sources/CMallocStatistics"),
        .executableTarget(
            name: "stillpoint-bench",
            dependencies: [
                .product(name: "StillpointCore", package: "Stillpoint"),
                .product(name: "StillpointSQLite", package: "Stillpoint"),
                .product(name: "PracticeLog", package: "Stillpoint"),
                .product(name: "StillpointStatistics", package: "Stillpoint"),
                .product(name: "StillpointManifest", package: "Stillpoint"),
                .product(name: "StillpointCatalog", package: "Stillpoint"),
                .product(name: "StillpointReport", package: "Stillpoint"),
                .product(name: "StillpointPostgres", package: "Stillpoint"),
                .product(name: "StillpointPostgresTestSupport", package: "Stillpoint"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                "CLibPQBaseline",
                "CCallgrind",
                "CMallocStatistics",
            ],
            path: "Sources/stillpoint-bench",
            swiftSettings: [
                .swiftLanguageMode(.v6),
                .enableUpcomingFeature("ExistentialAny"),
            ]
        ),
        // `serve`'s baseline: Hummingbird's hello-world route, measured by the same wrk in the same run.
        .executableTarget(
            name: "bench-hello-server",
            dependencies: [.product(name: "Hummingbird", package: "hummingbird")],
            path: "Sources/bench-hello-server",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
