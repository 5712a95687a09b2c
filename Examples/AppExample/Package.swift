// swift-tools-version: 6.0
// What an app does with a store, as an app would build it: its own package, depending on this
// repository's package by path and using only its public API (docs/library.md: "Using the library
// in an app"). CI builds it with `swift build --package-path Examples/AppExample`.
import PackageDescription

let package = Package(
    name: "AppExample",
    platforms: [.macOS(.v13), .iOS(.v16)],
    dependencies: [
        // `name:` because a package found by path is known by its folder's name, which depends on
        // where the repository was cloned; the library's package is named WorkStreamStore.
        .package(name: "WorkStreamStore", path: "../.."),
    ],
    targets: [
        // The app: open at launch, observe, send, show the visible queue, react to another process.
        .executableTarget(name: "app-example", dependencies: [.product(name: "JSONStore", package: "WorkStreamStore")]),
        // The README's first library example (synchronous `Store`), as written there.
        .executableTarget(name: "library-example", dependencies: [.product(name: "JSONStore", package: "WorkStreamStore")]),
    ],
    swiftLanguageModes: [.v6]
)
