import Foundation
import Testing
import TestSupport

/// `Examples/AppExample` (the README's "Using the library in an app"), built and run as an app would be.
@Suite struct AppExampleTests {
    static let executable = BuiltTool.products.appendingPathComponent("app-example").path

    @Test(.timeLimit(.minutes(1)))
    func appExampleSendsShowsTheQueueAndReactsToAnotherProcesssReply() throws {
        let folder = TemporaryDirectory()
        let run = try BuiltTool.runProgram(Self.executable, [folder("store")], timeLimit: 50)
        #expect(run.code == 0, "\(run)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        try #require(lines.count == 4, "\(run)")
        #expect(lines[0] == "opened \(folder("store"))")
        // The login work stream is queued and shown; the API one is queued too, but its provider session is locked.
        let login = try #require(lines[1].wholeMatch(of: /queue \[1:([0-9a-f-]{36})\], 1 hidden/)?.1, "\(lines[1])")
        #expect(lines[2] == "reply in \(login): The session token is read before it is set.")
        #expect(lines[3] == "queue [], 1 hidden", "the helper took the answered work stream off the queue")
    }

    @Test(.timeLimit(.minutes(1)))
    func appExampleOpensTheStoreItMadeAtTheNextLaunch() throws {
        let folder = TemporaryDirectory()
        let first = try BuiltTool.runProgram(Self.executable, [folder("store")], timeLimit: 50)
        #expect(first.code == 0, "\(first)")
        let second = try BuiltTool.runProgram(Self.executable, [folder("store")], timeLimit: 50)
        #expect(second.code == 0, "\(second)")
        let lines = second.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 4, "\(second)")
        #expect(lines.first.map { $0.hasPrefix("opened ") } == true)
        #expect(lines.last?.hasPrefix("queue [1:") == true, "the first launch's API work stream is queued, no longer locked: \(second)")
    }

    @Test func readmeShowsTheAppExamplesCodeAsItIs() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let example = try String(contentsOf: root.appendingPathComponent("Examples/AppExample/main.swift"), encoding: .utf8)
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let core = try #require(example.range(of: "// 1. At launch")).lowerBound
        let body = String(example[core...]).trimmingCharacters(in: .newlines)
        #expect(readme.contains("```swift\n" + body + "\n```"), "README's 'Using the library in an app' differs from Examples/AppExample/main.swift")
    }
}
