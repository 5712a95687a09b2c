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
        // SHA-256 rounds on the processor's SHA instructions (x86-64 SHA-NI), our own C;
        // elsewhere it reports "not available" and StoreFiles hashes in Swift.
        .target(name: "CSHA256"),
        // Below the store: system calls, atomic and batched file commits, tree scans, SHA-256,
        // parallel helpers, `StoreError` and `StoreProgress`. Never imports JSONStore; `Schema` only
        // for the store's layout (file and folder names, the temp-file prefix, `store.json`'s version).
        .target(name: "StoreFiles", dependencies: ["Schema", "StoreJSON", "CSHA256"]),
        // The store: `Store` (reads, writes, the queue), the lock, the write record, observation.
        // Never imports JSONStore: opening's restore recovery and §7 reconcile come from above, as
        // a `StoreMaintenance`.
        .target(name: "StoreCore", dependencies: ["StoreFiles", "Schema", "StoreJSON"]),
        // Upgrade (migration), backup, restore, export and import, Core Data import, validation,
        // `AsyncStore`, and the public ways into a `Store` (`Library.swift`).
        .target(name: "JSONStore", dependencies: ["StoreCore", "StoreFiles", "Schema", "StoreJSON"]),
        // The command-line tool as a library (commands, parsing, output); the executable is its main.swift.
        .target(name: "MigrateStoreCLI", dependencies: ["Schema", "JSONStore", "StoreJSON"]),
        .executableTarget(name: "migrate-store", dependencies: ["MigrateStoreCLI"]),
        // Child process of the multi-process tests (JSONStoreTests: kill -9, lock contention;
        // ReliabilityTests: concurrent writers through the public API); not a product.
        .executableTarget(name: "store-test-helper", dependencies: ["JSONStore", "StoreGenerator"]),
        // What the test targets share: temp folders, sample copies, tree snapshots, runners of the
        // built executables; not a product.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        // Deterministic stores for benchmarks and tests (Benchmarks/README.md); not products.
        .target(name: "StoreGenerator", dependencies: ["Schema", "StoreJSON"]),
        .executableTarget(name: "generate-store", dependencies: ["StoreGenerator"]),
        .executableTarget(name: "store-bench", dependencies: ["JSONStore", "Schema"]),
        .testTarget(name: "SchemaTests", dependencies: ["Schema", "StoreJSON", "StoreGenerator", "TestSupport"]),
        .testTarget(
            name: "JSONStoreTests", dependencies: ["JSONStore", "StoreCore", "Schema", "StoreJSON", "store-test-helper", "StoreGenerator", "TestSupport"]),
        .testTarget(name: "StoreGeneratorTests", dependencies: ["StoreGenerator", "JSONStore", "Schema", "StoreJSON", "TestSupport", "generate-store"]),
        .testTarget(
            name: "MigrateStoreTests", dependencies: ["MigrateStoreCLI", "migrate-store", "JSONStore", "Schema", "StoreJSON", "StoreGenerator", "TestSupport"]),
        // Crash, fault, bad-input, concurrency and hostile-file suites; runs the built migrate-store.
        .testTarget(
            name: "ReliabilityTests", dependencies: ["JSONStore", "Schema", "StoreJSON", "StoreGenerator", "migrate-store", "store-test-helper", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
