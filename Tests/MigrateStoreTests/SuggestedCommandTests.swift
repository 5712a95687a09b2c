import Foundation
import JSONStore
import Testing

@testable import MigrateStoreCLI

/// Every command the tool suggests is shell-quoted: pasted into `/bin/sh`, it runs, whatever
/// the store's path holds (spaces, single quotes, `$`). Paths of only safe characters are
/// printed as they are, so the usual output does not change.
@Suite struct SuggestedCommandTests {
    @Test func safeWordsStayAsTheyAreAndOthersAreSingleQuoted() {
        #expect(TextFormat.shellWord("/data/store-2.v1_old@host:x,y=z+%") == "/data/store-2.v1_old@host:x,y=z+%")
        #expect(TextFormat.shellWord("") == "''")
        #expect(TextFormat.shellWord("my store") == "'my store'")
        #expect(TextFormat.shellWord("it's") == "'it'\\''s'")
        #expect(TextFormat.shellWord("$HOME`x`\\") == "'$HOME`x`\\'")
        #expect(TextFormat.shellWord("é") == "'é'")
        // A quote followed by a combining mark is one Character; the quote is still escaped.
        #expect(TextFormat.shellWord("a'\u{301}b") == "'a'\\''\u{301}b'")
        #expect(ToolInfo.command("migrate", "/tmp/it's") == "migrate-store migrate '/tmp/it'\\''s'")
    }

    /// The library's ways out name operations; the tool prints each as its own command line,
    /// every word quoted, `BACKUP` for a backup the user picks.
    @Test func operationsTheLibrarySuggestsPrintAsThisToolsCommands() {
        let store = "/tmp/it's"
        let quoted = TextFormat.shellWord(store)
        #expect(StoreError.Operation.validate(store: nil).commandLine == "migrate-store validate")
        #expect(StoreError.Operation.validate(store: store).commandLine == "migrate-store validate \(quoted)")
        #expect(StoreError.Operation.migrate(store: nil).commandLine == "migrate-store migrate")
        #expect(StoreError.Operation.migrate(store: store).commandLine == "migrate-store migrate \(quoted)")
        #expect(
            StoreError.Operation.migrate(store: store, to: 4, allowBreaking: true).commandLine
                == "migrate-store migrate --to 4 --allow-breaking \(quoted)")
        #expect(StoreError.Operation.rollback(store: store, backup: nil).commandLine == "migrate-store rollback \(quoted) --from-backup BACKUP")
        #expect(StoreError.Operation.restore(backup: nil, over: store).commandLine == "migrate-store restore BACKUP \(quoted) --force")
        #expect(StoreError.Operation.verifyBackup(store).commandLine == "migrate-store verify-backup \(quoted)")
        let fix = StoreError.Recovery.runCommand(.validate(store: nil), advice: "Validate the store.", before: "Run ", after: ".")
        let error = StoreError(.invalidDocument, "Can't read '/s/x.json': it is broken.", recovery: fix)
        #expect(error.recoverySuggestion == "Validate the store.")
        #expect(fix.text(commandLine: \.commandLine) == "Run 'migrate-store validate'.")
    }

    /// A folder whose name would break an unquoted or naively quoted suggestion three ways.
    static let awkwardName = "it's a $HOME store"

    @Test func statusPlanMigrateAndShowSuggestCommandsThatRunAsPrinted() throws {
        let temporary = TemporaryDirectory("suggest")
        let store = try temporary.copySample("v1-store", as: Self.awkwardName)

        let status = try BuiltTool.run(["status", store])
        #expect(status.code == 0, "\(status)")
        let line = try #require(status.stdout.split(separator: "\n").first { $0.hasPrefix("Migration:") }.map(String.init))
        let plan = try Self.between(line, "run '", "' to see the changes")
        #expect(plan == "migrate-store plan " + TextFormat.shellWord(store))
        let planRun = try Self.shell(plan)
        #expect(planRun.code == 0 && planRun.stdout.hasPrefix("Plan for '\(store)'"), "\(planRun)")

        let migrate = try Self.between(planRun.stdout, "Run '", "' to make exactly these changes")
        #expect(migrate == (try Self.between(line + "\n", "then '", "'\n")))
        let migrated = try Self.shell(migrate)
        #expect(migrated.code == 0, "\(migrated)")
        let verify = try Self.between(migrated.stdout, "Check it against the backup with: ", "\n")
        let verified = try Self.shell(verify)
        #expect(verified.code == 0 && verified.stdout.contains("Verified: v1, v2 and v3 programs can read and write this store."), "\(verified)")

        let show = try BuiltTool.run(["show", store, "0000"])
        #expect(show.code == 65)
        let ls = try Self.between(show.stderr, "Run '", "' to see every id.")
        #expect(ls == "migrate-store ls \(TextFormat.shellWord(store)) --deleted")
        let listed = try Self.shell(ls)
        #expect(listed.code == 0 && listed.stdout.contains("8 work streams."), "\(listed)")
    }

    @Test func backupSuggestsAQuotedChecksumCommand() throws {
        let temporary = TemporaryDirectory("suggest-backup")
        let store = try temporary.copySample("v2-store")
        let backup = temporary("\(Self.awkwardName).backup")
        let run = try BuiltTool.run(["backup", store, backup])
        #expect(run.code == 0, "\(run)")
        let check = try Self.between(run.stdout, "To check it yourself: ", "\n")
        #expect(check == "cd \(TextFormat.shellWord(backup)) && sha256sum -c SHA256SUMS")
        let checked = try BuiltTool.runProgram("/bin/sh", ["-c", check + " --quiet"])
        #expect(checked.code == 0, "\(checked)")
    }

    /// The text between the first `start` and the next `end` after it.
    static func between(
        _ text: String, _ start: String, _ end: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> String {
        let from = try #require(text.range(of: start), "no '\(start)' in: \(text)", sourceLocation: sourceLocation)
        let to = try #require(
            text.range(of: end, range: from.upperBound..<text.endIndex), "no '\(end)' in: \(text)",
            sourceLocation: sourceLocation)
        return String(text[from.upperBound..<to.lowerBound])
    }

    /// Runs a printed command line as a user pasting it would, with the built tool first on `PATH`.
    static func shell(_ command: String) throws -> ToolRun {
        let path = BuiltTool.products.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        return try BuiltTool.runProgram("/bin/sh", ["-c", command], environment: ["PATH": path])
    }
}
