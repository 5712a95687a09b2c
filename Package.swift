// swift-tools-version: 6.0
// No package dependencies, by the user's requirement: Swift toolchain, Foundation and libc only.
import PackageDescription

let package = Package(
    name: "WorkStreamStore",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "Schema", targets: ["Schema"]),
        .library(name: "JSONStore", targets: ["JSONStore"]),
        .executable(name: "migrate-store", targets: ["migrate-store"]),
    ],
    targets: [
        .target(name: "Schema"),
        .target(name: "JSONStore", dependencies: ["Schema"]),
        // The command-line tool as a library (commands, parsing, output); the executable is its main.swift.
        .target(name: "MigrateStoreCLI", dependencies: ["Schema", "JSONStore"]),
        .executableTarget(name: "migrate-store", dependencies: ["MigrateStoreCLI"]),
        // Child process for JSONStoreTests' multi-process tests (kill -9, lock contention); not a product.
        .executableTarget(name: "store-test-helper", dependencies: ["JSONStore"]),
        // Deterministic stores for benchmarks and tests (Benchmarks/README.md); not products.
        .target(name: "StoreGenerator", dependencies: ["Schema"]),
        .executableTarget(name: "generate-store", dependencies: ["StoreGenerator"]),
        .executableTarget(name: "store-bench", dependencies: ["JSONStore", "Schema"]),
        .testTarget(name: "SchemaTests", dependencies: ["Schema", "StoreGenerator"]),
        .testTarget(name: "JSONStoreTests", dependencies: ["JSONStore", "Schema", "store-test-helper", "StoreGenerator"]),
        .testTarget(name: "StoreGeneratorTests", dependencies: ["StoreGenerator", "JSONStore", "Schema"]),
        .testTarget(name: "MigrateStoreTests", dependencies: ["MigrateStoreCLI", "migrate-store", "JSONStore", "Schema", "StoreGenerator"]),
        // Crash, fault, bad-input, concurrency and hostile-file suites; runs the built migrate-store.
        .testTarget(name: "ReliabilityTests", dependencies: ["JSONStore", "Schema", "StoreGenerator", "migrate-store", "reliability-helper"]),
        // Child process for ReliabilityTests' concurrency tests (public Store API only); not a product.
        .executableTarget(name: "reliability-helper", dependencies: ["JSONStore"]),
    ],
    swiftLanguageModes: [.v6]
)
