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
        // The JSON engine (parser, canonical writers, RFC 3339 dates, UUID text): `package` API for
        // this package's targets; only the value types of the document API (JSONValue...) are public.
        .target(name: "StoreJSON"),
        .target(name: "Schema", dependencies: ["StoreJSON"]),
        .target(name: "JSONStore", dependencies: ["Schema", "StoreJSON"]),
        .executableTarget(name: "migrate-store", dependencies: ["Schema", "JSONStore", "StoreJSON"]),
        // Child process for JSONStoreTests' multi-process tests (kill -9, lock contention); not a product.
        .executableTarget(name: "store-test-helper", dependencies: ["JSONStore"]),
        // Deterministic stores for benchmarks and tests (Benchmarks/README.md); not products.
        .target(name: "StoreGenerator", dependencies: ["Schema", "StoreJSON"]),
        .executableTarget(name: "generate-store", dependencies: ["StoreGenerator"]),
        .executableTarget(name: "store-bench", dependencies: ["JSONStore", "Schema"]),
        .testTarget(name: "SchemaTests", dependencies: ["Schema", "StoreJSON", "StoreGenerator"]),
        .testTarget(name: "JSONStoreTests", dependencies: ["JSONStore", "Schema", "StoreJSON", "store-test-helper", "StoreGenerator"]),
        .testTarget(name: "StoreGeneratorTests", dependencies: ["StoreGenerator", "JSONStore", "Schema", "StoreJSON"]),
        .testTarget(name: "MigrateStoreTests", dependencies: ["migrate-store", "JSONStore", "Schema", "StoreJSON", "StoreGenerator"]),
        // Crash, fault, bad-input, concurrency and hostile-file suites; runs the built migrate-store.
        .testTarget(name: "ReliabilityTests", dependencies: ["JSONStore", "Schema", "StoreJSON", "StoreGenerator", "migrate-store", "reliability-helper"]),
        // Child process for ReliabilityTests' concurrency tests (public Store API only); not a product.
        .executableTarget(name: "reliability-helper", dependencies: ["JSONStore"]),
    ],
    swiftLanguageModes: [.v6]
)
