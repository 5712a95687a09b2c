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
        .executableTarget(name: "migrate-store", dependencies: ["Schema", "JSONStore"]),
        // Child process for JSONStoreTests' multi-process tests (kill -9, lock contention); not a product.
        .executableTarget(name: "store-test-helper", dependencies: ["JSONStore"]),
        .testTarget(name: "SchemaTests", dependencies: ["Schema"]),
        .testTarget(name: "JSONStoreTests", dependencies: ["JSONStore", "Schema", "store-test-helper"]),
        .testTarget(name: "MigrateStoreTests", dependencies: ["migrate-store", "JSONStore", "Schema"]),
    ],
    swiftLanguageModes: [.v6]
)
