// swift-tools-version:6.1
import PackageDescription

/// A statistic module from outside Stillpoint: `CareStatistics`, what a care team watches in a practice log,
/// and `care-stillpoint`, the `stillpoint` tool with it added. Stillpoint is a dependency like any other; here
/// by path, elsewhere by URL.
let package = Package(
    name: "CareStatistics",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "CareStatistics", targets: ["CareStatistics"]),
        .executable(name: "care-stillpoint", targets: ["care-stillpoint"]),
    ],
    dependencies: [
        .package(name: "Stillpoint", path: "../.."),
    ],
    targets: [
        .target(
            name: "CareStatistics",
            dependencies: [
                .product(name: "StillpointStatistics", package: "Stillpoint"),
                .product(name: "PracticeLog", package: "Stillpoint"),
                .product(name: "StillpointCore", package: "Stillpoint"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6), .enableUpcomingFeature("ExistentialAny")]),
        .executableTarget(
            name: "care-stillpoint",
            dependencies: [
                "CareStatistics",
                .product(name: "StillpointTool", package: "Stillpoint"),
                .product(name: "StillpointCatalog", package: "Stillpoint"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6), .enableUpcomingFeature("ExistentialAny")]),
        .testTarget(
            name: "CareStatisticsTests",
            dependencies: [
                "CareStatistics",
                .product(name: "StillpointStatistics", package: "Stillpoint"),
                .product(name: "StillpointCatalog", package: "Stillpoint"),
                .product(name: "StillpointManifest", package: "Stillpoint"),
                .product(name: "StillpointTestSupport", package: "Stillpoint"),
                .product(name: "StillpointReport", package: "Stillpoint"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6), .enableUpcomingFeature("ExistentialAny")]),
    ]
)
