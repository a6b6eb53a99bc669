// swift-tools-version:6.1
import PackageDescription

/// Swift 6 language mode with complete concurrency checking, for every target.
let strictSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
]

/// The statistic modules under `Plugins/`. Adding one: a folder, a name here, a line in `BuiltInStatistics`.
let statisticModules = [
    "SessionTimeStatistics",
    "TotalStatistics",
    "StreakStatistics",
    "RhythmStatistics",
    "TrendStatistics",
    "ConsistencyStatistics",
]

let grdb = Target.Dependency.product(name: "GRDB", package: "GRDB.swift")

/// The report application's packages come with the `Report` trait, on by default: an app that depends on the core
/// and a store with `traits: []` resolves and builds GRDB alone (README, "The core in an app of your own").
let report: Set<String> = ["Report"]
/// Property-based testing for Swift Testing: the parsers' fuzz tests that run with every `swift test`.
let propertyBased = Target.Dependency.product(name: "PropertyBased", package: "swift-property-based", condition: .when(traits: report))
let yams = Target.Dependency.product(name: "Yams", package: "Yams", condition: .when(traits: report))
let zipFoundation = Target.Dependency.product(name: "ZIPFoundation", package: "ZIPFoundation", condition: .when(traits: report))
/// The HTTP service's packages (`stillpoint-server`), with the `Report` trait too: the tool never links them.
let hummingbird = Target.Dependency.product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: report))
let hummingbirdTesting = Target.Dependency.product(name: "HummingbirdTesting", package: "hummingbird", condition: .when(traits: report))
let serviceLifecycle = Target.Dependency.product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: .when(traits: report))
let crypto = Target.Dependency.product(name: "Crypto", package: "swift-crypto", condition: .when(traits: report))
let logging = Target.Dependency.product(name: "Logging", package: "swift-log", condition: .when(traits: report))
let argumentParser = Target.Dependency.product(name: "ArgumentParser", package: "swift-argument-parser", condition: .when(traits: report))

/// `STILLPOINT_WITHOUT_SERVER=1` leaves the HTTP service (its targets, tests and packages) out of the graph. CI's
/// thread-sanitizer pass sets it: building the HTTP stack a second time under the sanitizer costs more of CI's
/// time than the libraries' tests it adds; the service's own tests run in the ordinary pass.
let withServer = Context.environment["STILLPOINT_WITHOUT_SERVER"] == nil

/// `STILLPOINT_RACE_TESTS_ONLY=1` leaves out of the graph the test targets with nothing of their own for the thread
/// sanitizer to watch, as CI's sanitizer pass does: the tool's end-to-end tests (they run the tool in child
/// processes, where the sanitizer sees none of it), the statistic modules' (functions over a digest, on one
/// thread), the SQL compiler's and the source audit. Building them under the sanitizer cost minutes of CI's time;
/// they run in the ordinary pass.
let withAllTests = Context.environment["STILLPOINT_RACE_TESTS_ONLY"] == nil

let package = Package(
    name: "Stillpoint",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "StillpointCore", targets: ["StillpointCore"]),
        .library(name: "StillpointSQL", targets: ["StillpointSQL"]),
        .library(name: "StillpointSQLite", targets: ["StillpointSQLite"]),
        .library(name: "StillpointPostgres", targets: ["StillpointPostgres"]),
        .library(name: "PracticeLog", targets: ["PracticeLog"]),
        .library(name: "StillpointStatistics", targets: ["StillpointStatistics"]),
        .library(name: "StillpointManifest", targets: ["StillpointManifest"]),
        .library(name: "StillpointCatalog", targets: ["StillpointCatalog"]),
        .library(name: "StillpointReport", targets: ["StillpointReport"]),
        .library(name: "StillpointTool", targets: ["StillpointTool"]),
        // Helpers and the conformance checks for the tests of a statistic module, in Stillpoint or outside it.
        .library(name: "StillpointTestSupport", targets: ["StillpointTestSupport"]),
        // A throwaway PostgreSQL server for tests and benchmarks (initdb and pg_ctl in a temporary folder).
        .library(name: "StillpointPostgresTestSupport", targets: ["StillpointPostgresTestSupport"]),
        .executable(name: "stillpoint", targets: ["stillpoint"]),
    ] + serverProducts,
    traits: [
        .trait(name: "Report", description: "The practice log, statistics, manifest, report and the stillpoint tool, with "
               + "the packages they need (Yams, ZIPFoundation, swift-argument-parser, swift-log) and the tests' property "
               + "library. Without it only StillpointCore, StillpointSQLite and StillpointPostgres build."),
        .default(enabledTraits: ["Report"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/jpsim/Yams", exact: "6.2.2"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", exact: "0.9.20"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based", exact: "2.0.1"),
    ] + serverPackages,
    targets: [
        // The engine-neutral core: contexts, the object graph, predicates, change sets, operations, the store seam.
        .target(
            name: "StillpointCore",
            path: "Modules/StillpointCore",
            swiftSettings: strictSettings),
        // The built-in stores' SQL spellings, between the core and the stores: no database library, so that a module
        // that checks a predicate for every store (a manifest's where:) links neither.
        .target(
            name: "StillpointSQL",
            dependencies: ["StillpointCore"],
            path: "Modules/StillpointSQL",
            swiftSettings: strictSettings),
        // The SQLite store, over GRDB: the embedded default.
        .target(
            name: "StillpointSQLite",
            dependencies: ["StillpointCore", "StillpointSQL", grdb, .product(name: "GRDBSQLite", package: "GRDB.swift")],
            path: "Modules/StillpointSQLite",
            swiftSettings: strictSettings),
        // libpq, the PostgreSQL project's C client (Debian's libpq-dev), and the PostgreSQL store built on it.
        .systemLibrary(
            name: "CLibPQ",
            path: "Modules/CLibPQ",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]),
        .target(
            name: "StillpointPostgres",
            dependencies: ["StillpointCore", "StillpointSQL", "CLibPQ"],
            path: "Modules/StillpointPostgres",
            swiftSettings: strictSettings),
        // Child processes for the tests and their throwaway servers (posix_spawn; see ChildProcess for why).
        .target(
            name: "StillpointChildProcess",
            dependencies: ["StillpointCore"],
            path: "Modules/StillpointChildProcess",
            swiftSettings: strictSettings),
        .target(
            name: "StillpointPostgresTestSupport",
            dependencies: ["StillpointPostgres", "StillpointChildProcess"],
            path: "Modules/StillpointPostgresTestSupport",
            swiftSettings: strictSettings),
        .target(
            name: "PracticeLog",
            dependencies: ["StillpointCore", zipFoundation],
            path: "Modules/PracticeLog",
            swiftSettings: strictSettings),
        .target(
            name: "StillpointStatistics",
            dependencies: ["StillpointCore", "PracticeLog"],
            path: "Modules/StillpointStatistics",
            swiftSettings: strictSettings),
        // The YAML manifest and its custom statistics, apart from the statistic API: no statistic module compiles Yams.
        .target(
            name: "StillpointManifest",
            dependencies: ["StillpointCore", "StillpointSQL", "PracticeLog", "StillpointStatistics", yams],
            path: "Modules/StillpointManifest",
            swiftSettings: strictSettings),
        .target(
            name: "StillpointReport",
            dependencies: ["StillpointCore", "PracticeLog", "StillpointStatistics", "StillpointManifest"],
            path: "Modules/StillpointReport",
            // Config/default.yaml (linked into the module's folder), compiled into the tool: no file to ship beside it.
            resources: [.embedInCode("Setup/default.yaml")],
            swiftSettings: strictSettings),
        .target(
            name: "StillpointCatalog",
            dependencies: ["StillpointStatistics"] + statisticModules.map { .target(name: $0) },
            path: "Modules/StillpointCatalog",
            swiftSettings: strictSettings),
        .target(
            name: "StillpointTestSupport",
            dependencies: ["StillpointSQLite", "StillpointCore", "PracticeLog", "StillpointStatistics", "StillpointManifest",
                           "StillpointPostgres", "StillpointPostgresTestSupport"],
            path: "Modules/StillpointTestSupport",
            swiftSettings: strictSettings),
        // The default store (made on first use from a demo history), shared by the tool and the server.
        .target(
            name: "StillpointDefaultStore",
            dependencies: ["StillpointCore", "StillpointSQLite", "PracticeLog"],
            path: "Modules/StillpointDefaultStore",
            swiftSettings: strictSettings),
        // The command-line tool as a library, so that a package of its own can build it with more modules...
        .target(
            name: "StillpointTool",
            dependencies: [
                "StillpointCore", "StillpointSQL", "StillpointSQLite", "StillpointPostgres", "PracticeLog", "StillpointStatistics", "StillpointManifest", "StillpointReport", "StillpointCatalog",
                "StillpointDefaultStore", argumentParser, logging,
            ],
            path: "Modules/StillpointTool",
            swiftSettings: strictSettings),
        // ...and Stillpoint's own `stillpoint`, the library over the built-in modules.
        .executableTarget(
            name: "stillpoint",
            dependencies: ["StillpointTool", "StillpointCatalog"],
            path: "Modules/stillpoint",
            swiftSettings: strictSettings),
        .testTarget(
            name: "StillpointCoreTests",
            dependencies: [
                "StillpointSQLite", "StillpointCore", "StillpointSQL", "StillpointTestSupport", "StillpointPostgres", "StillpointPostgresTestSupport",
                "StillpointChildProcess", grdb, propertyBased,
            ],
            path: "Tests/StillpointCoreTests",
            swiftSettings: strictSettings),
        .testTarget(
            name: "StillpointPostgresTests",
            dependencies: ["StillpointSQLite", "StillpointPostgres", "StillpointCore", "StillpointSQL", "StillpointPostgresTestSupport",
                           "StillpointTestSupport", propertyBased],
            path: "Tests/StillpointPostgresTests",
            swiftSettings: strictSettings),
        .testTarget(
            name: "StillpointSQLiteTests",
            dependencies: ["StillpointSQLite", "StillpointCore", "StillpointTestSupport", grdb],
            path: "Tests/StillpointSQLiteTests",
            swiftSettings: strictSettings),
        .testTarget(
            name: "StillpointChildProcessTests",
            dependencies: ["StillpointChildProcess"],
            path: "Tests/StillpointChildProcessTests",
            swiftSettings: strictSettings),
        .testTarget(
            name: "PracticeLogTests",
            dependencies: [
                "StillpointSQLite", "StillpointPostgres", "StillpointPostgresTestSupport", "StillpointSQL", "PracticeLog", "StillpointTestSupport",
                "StillpointChildProcess", zipFoundation,
            ],
            path: "Tests/PracticeLogTests",
            exclude: ["Fixtures"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "StillpointReportTests",
            dependencies: ["StillpointSQLite", "StillpointReport", "StillpointStatistics", "StillpointManifest", "StillpointCatalog", "PracticeLog",
                           "StillpointPostgres", "StillpointPostgresTestSupport", "StillpointTestSupport", propertyBased],
            path: "Tests/StillpointReportTests",
            exclude: ["Golden"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "StillpointStatisticsTests",
            dependencies: ["StillpointSQLite", "StillpointStatistics", "StillpointManifest", "StillpointCatalog", "StillpointTestSupport", propertyBased],
            path: "Tests/StillpointStatisticsTests",
            swiftSettings: strictSettings),
    ]
        + serverTargets
        + ordinaryPassTestTargets
        + statisticModules.map { name in
            .target(
                name: name,
                dependencies: ["StillpointCore", "PracticeLog", "StillpointStatistics"],
                path: "Plugins/\(name)",
                swiftSettings: strictSettings)
        }
)

/// The HTTP service, a product of its own so that building `stillpoint` never builds Hummingbird.
var serverProducts: [Product] {
    guard withServer else { return [] }
    return [
        .library(name: "StillpointServer", targets: ["StillpointServer"]),
        .executable(name: "stillpoint-server", targets: ["stillpoint-server"]),
    ]
}

var serverPackages: [Package.Dependency] {
    guard withServer else { return [] }
    return [
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", exact: "2.13.0"),
        .package(url: "https://github.com/apple/swift-crypto", exact: "3.12.3"),
    ]
}

var serverTargets: [Target] {
    guard withServer else { return [] }
    return [
        // The HTTP service: every practitioner's report over HTTP, and their administration.
        .target(
            name: "StillpointServer",
            dependencies: [
                "StillpointCore", "StillpointSQLite", "StillpointPostgres", "PracticeLog", "StillpointStatistics", "StillpointManifest",
                "StillpointReport", "StillpointCatalog", "StillpointDefaultStore", hummingbird, serviceLifecycle, crypto, logging,
            ],
            path: "Modules/StillpointServer",
            swiftSettings: strictSettings),
        // `stillpoint-server`: parses its options and hands off to StillpointServer.
        .executableTarget(
            name: "stillpoint-server",
            dependencies: ["StillpointServer", argumentParser, logging],
            path: "Modules/stillpoint-server",
            swiftSettings: strictSettings),
        .testTarget(
            name: "StillpointServerTests",
            dependencies: [
                "StillpointServer", "stillpoint-server", "stillpoint", "StillpointSQLite", "StillpointPostgres", "StillpointCore", "PracticeLog", "StillpointReport",
                "StillpointCatalog", "StillpointManifest", "StillpointPostgresTestSupport", "StillpointChildProcess", hummingbird, hummingbirdTesting, crypto,
            ],
            path: "Tests/StillpointServerTests",
            swiftSettings: strictSettings),
    ]
}

/// The test targets left out of CI's sanitizer pass (`STILLPOINT_RACE_TESTS_ONLY`).
var ordinaryPassTestTargets: [Target] {
    guard withAllTests else { return [] }
    return [
        .testTarget(
            name: "StillpointSQLTests",
            dependencies: ["StillpointSQL", "StillpointCore", propertyBased],
            path: "Tests/StillpointSQLTests",
            swiftSettings: strictSettings),
        .testTarget(
            name: "SourceAuditTests",
            dependencies: ["StillpointChildProcess"],
            path: "Tests/SourceAuditTests",
            swiftSettings: strictSettings),
        .testTarget(
            name: "StillpointToolTests",
            dependencies: [
                "StillpointSQLite", "StillpointPostgres", "stillpoint", "StillpointTool", "StillpointDefaultStore", "StillpointCore", "PracticeLog",
                "StillpointPostgresTestSupport", "StillpointChildProcess",
            ],
            path: "Tests/StillpointToolTests",
            exclude: ["Golden"],
            swiftSettings: strictSettings),
    ]
        + statisticModules.map { name in
            .testTarget(
                name: "\(name)Tests",
                dependencies: [.target(name: name), "PracticeLog", "StillpointStatistics", "StillpointTestSupport"],
                path: "Tests/\(name)Tests",
                swiftSettings: strictSettings)
        }
}
