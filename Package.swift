// swift-tools-version:6.1
import PackageDescription

/// Swift 6 language mode with complete concurrency checking, for every target.
let strictSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "Stillpoint",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "StillpointCore", targets: ["StillpointCore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
    ],
    targets: [
        .target(
            name: "StillpointCore",
            dependencies: [
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            path: "Modules/StillpointCore",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "StillpointCoreTests",
            dependencies: ["StillpointCore", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Tests/StillpointCoreTests",
            swiftSettings: strictSettings
        ),
    ]
)
