import Foundation
import TestSupport
import Testing

/// `Examples/AppExample` (docs/library.md, "Using the library in an app"): a package of its own that
/// depends on this one by path, built as an app would build it (`swift build --package-path`; a
/// no-op when CI built it just before, a full build of the library otherwise) and run as an app
/// is. Building it here is what shows that it compiles with the public API alone.
@Suite(.serialized) struct AppExampleTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let package = root.appendingPathComponent("Examples/AppExample").path

    /// The example package's products folder, once built (the first test to ask builds it).
    static let products: Result<String, BuildFailure> = {
        let swift = BuiltTool.which("swift")
        do {
            let build = try BuiltTool.runProgram(swift, ["build", "--package-path", package], timeLimit: 1500)
            guard build.code == 0, !build.timedOut else { return .failure(BuildFailure(text: "swift build failed: \(build)")) }
            if build.stdout.contains("warning:") || build.stderr.contains("warning:") {
                return .failure(BuildFailure(text: "the example builds with warnings: \(build)"))
            }
            let bin = try BuiltTool.runProgram(swift, ["build", "--package-path", package, "--show-bin-path"], timeLimit: 300)
            guard bin.code == 0 else { return .failure(BuildFailure(text: "swift build --show-bin-path failed: \(bin)")) }
            return .success(bin.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        } catch {
            return .failure(BuildFailure(text: "can't run '\(swift)': \(error)"))
        }
    }()

    struct BuildFailure: Error, CustomStringConvertible {
        var text: String
        var description: String { text }
    }

    static func executable(_ name: String) throws -> String {
        try products.get() + "/" + name
    }

    @Test(.timeLimit(.minutes(30)))
    func appExampleSendsShowsTheQueueAndReactsToAnotherProcesssReply() throws {
        let folder = TemporaryDirectory()
        let run = try BuiltTool.runProgram(try Self.executable("app-example"), [folder("store")], timeLimit: 50)
        #expect(run.code == 0, "\(run)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        try #require(lines.count == 4, "\(run)")
        #expect(lines[0] == "opened \(folder("store"))")
        // The login work stream is queued and shown; the API one is queued too, but its provider session is locked.
        let login = try #require(lines[1].wholeMatch(of: /queue \[1:([0-9a-f-]{36})\], 1 hidden/)?.1, "\(lines[1])")
        #expect(lines[2] == "reply in \(login): The session token is read before it is set.")
        #expect(lines[3] == "queue [], 1 hidden", "the helper took the answered work stream off the queue")
    }

    @Test(.timeLimit(.minutes(30)))
    func appExampleOpensTheStoreItMadeAtTheNextLaunch() throws {
        let folder = TemporaryDirectory()
        let first = try BuiltTool.runProgram(try Self.executable("app-example"), [folder("store")], timeLimit: 50)
        #expect(first.code == 0, "\(first)")
        let second = try BuiltTool.runProgram(try Self.executable("app-example"), [folder("store")], timeLimit: 50)
        #expect(second.code == 0, "\(second)")
        let lines = second.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 4, "\(second)")
        #expect(lines.first.map { $0.hasPrefix("opened ") } == true)
        #expect(lines.last?.hasPrefix("queue [1:") == true, "the first launch's API work stream is queued, no longer locked: \(second)")
    }

    /// The README's library example builds as its own executable of the example package (its run
    /// is `ReadmeExampleTests`', with a temporary folder instead of /tmp/demo-store).
    @Test(.timeLimit(.minutes(30)))
    func libraryExampleIsBuilt() throws {
        #expect(FileManager.default.isExecutableFile(atPath: try Self.executable("library-example")))
    }

    /// Every block of README.md and docs/library.md marked as coming from an example is that file's text (the check CI runs).
    @Test func readmeShowsTheExamplesCodeAsItIs() throws {
        let run = try BuiltTool.runProgram(Self.root.appendingPathComponent("Scripts/check-readme-examples.sh").path, [], timeLimit: 60)
        #expect(run.code == 0, "\(run)")
        #expect(run.stdout == "README.md: 1 example block(s) match their files\ndocs/library.md: 2 example block(s) match their files\n", "\(run)")
    }
}
