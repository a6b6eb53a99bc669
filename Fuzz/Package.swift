// swift-tools-version:6.1
import PackageDescription

/// Stillpoint's libFuzzer targets, a package of its own so that the main package's build and `swift test` never
/// see the fuzzer's compiler flags. Build and run them with `Scripts/fuzz.sh` (see `Fuzz/README.md`); by hand:
///
///     swift build --package-path Fuzz --scratch-path .build-fuzz -c debug \
///         -Xswiftc -sanitize=fuzzer,address
///     .build-fuzz/debug/FuzzPredicate -max_total_time=60 work-corpus/ Fuzz/Corpus/FuzzPredicate
let settings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "StillpointFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Stillpoint", path: ".."),
    ],
    targets: [
        // libFuzzer's driver, declared for Swift.
        .target(name: "CFuzzer", path: "Sources/CFuzzer"),
        .target(
            name: "FuzzSupport",
            dependencies: ["CFuzzer"],
            path: "Sources/FuzzSupport",
            swiftSettings: settings),
        .executableTarget(
            name: "FuzzCSV",
            dependencies: ["FuzzSupport", .product(name: "PracticeLog", package: "Stillpoint")],
            path: "Sources/FuzzCSV",
            swiftSettings: settings),
        .executableTarget(
            name: "FuzzXML",
            dependencies: ["FuzzSupport", .product(name: "PracticeLog", package: "Stillpoint")],
            path: "Sources/FuzzXML",
            swiftSettings: settings),
        .executableTarget(
            name: "FuzzManifest",
            dependencies: [
                "FuzzSupport",
                .product(name: "StillpointStatistics", package: "Stillpoint"),
                .product(name: "StillpointManifest", package: "Stillpoint"),
                .product(name: "StillpointCatalog", package: "Stillpoint"),
            ],
            path: "Sources/FuzzManifest",
            swiftSettings: settings),
        .executableTarget(
            name: "FuzzPredicate",
            dependencies: [
                "FuzzSupport",
                .product(name: "StillpointCore", package: "Stillpoint"),
                .product(name: "StillpointSQL", package: "Stillpoint"),
                .product(name: "StillpointSQLite", package: "Stillpoint"),
            ],
            path: "Sources/FuzzPredicate",
            swiftSettings: settings),
    ]
)
