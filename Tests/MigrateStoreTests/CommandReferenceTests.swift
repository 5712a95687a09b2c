import Foundation
import TestSupport
import Testing

@testable import MigrateStoreCLI

/// The generated reference (`help --markdown`, `help --man`): the checked-in files are what the
/// tool prints, every registered command is in it, and help texts can't break either format.
@Suite struct CommandReferenceTests {
    /// The package root: this file is `Tests/MigrateStoreTests/CommandReferenceTests.swift`.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test(arguments: CommandReference.Format.allCases)
    func checkedInFileIsWhatTheToolGenerates(format: CommandReference.Format) throws {
        let generated = runInProcess(["help", format.option], registry: CommandRegistry())
        #expect(generated.code == 0 && generated.stderr.isEmpty, "\(generated)")
        let file = Self.packageRoot.appendingPathComponent(format.file)
        let checkedIn = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        let firstDifference =
            zip(
                checkedIn.split(separator: "\n", omittingEmptySubsequences: false),
                generated.stdout.split(separator: "\n", omittingEmptySubsequences: false)
            )
            .enumerated().first { $0.element.0 != $0.element.1 }
            .map { "line \($0.offset + 1):\n  checked in: \($0.element.0)\n  generated:  \($0.element.1)" }
            ?? "one is longer than the other"
        // A Bool, so that a failure prints the message, not both files whole.
        let isCurrent = checkedIn == generated.stdout
        #expect(
            isCurrent,
            """
            \(format.file) is not what '\(ToolInfo.name) help \(format.option)' prints (\(firstDifference)). \
            Run \(CommandReference.regenerateCommand) and commit the result.
            """)
    }

    @Test func theScriptWritesEveryFormatToItsFile() throws {
        let script = try String(
            contentsOf: Self.packageRoot.appendingPathComponent(CommandReference.regenerateCommand),
            encoding: .utf8)
        for format in CommandReference.Format.allCases {
            #expect(script.contains("help \(format.option) > \(format.file)"), "\(format.file)")
        }
    }

    @Test func referenceOptionsAreHiddenFromTheHelp() {
        let help = runInProcess(["help"]).stdout + runInProcess(["help", "help"]).stderr
        for format in CommandReference.Format.allCases { #expect(!help.contains(format.option)) }
    }

    @Test func referenceOptionsTakeNoTopicAndNotEachOther() {
        #expect(
            runInProcess(["help", "--markdown", "migrate"])
                == ToolRun(
                    stdout: "",
                    stderr: """
                        Error: Unexpected argument 'migrate'.
                        Usage: migrate-store help [<command>]
                        See 'migrate-store help'.

                        """, code: 64))
        #expect(
            runInProcess(["help", "--man", "--markdown"]).stderr
                .hasPrefix("Error: Options '--markdown' and '--man' cannot be used together.\n"))
        #expect(runInProcess(["help", "--markdown", "--markdown"]).code == 0)
        #expect(runInProcess(["help", "--mann"]).stderr.hasPrefix("Error: Unknown option '--mann'.\n"))
    }

    /// A command added to the registry is in both references with nothing else to change.
    @Test func everyRegisteredCommandIsInBothFormats() {
        let registry = CommandRegistry(CommandRegistry.all + [ExtraCommand.self])
        let markdown = CommandReference.text(.markdown, registry: registry)
        let man = CommandReference.text(.man, registry: registry)
        for spec in registry.commands.map(\.spec) {
            #expect(markdown.contains("\n### `\(spec.name)`\n"), "\(spec.name)")
            #expect(markdown.contains("](#\(MarkdownReference.anchor(spec.name))): "), "\(spec.name) in the contents")
            #expect(man.contains("\n.TP\n" + ManPageReference.font("B", "\(ToolInfo.name) \(spec.name)")), "\(spec.name)")
            for option in spec.options {
                #expect(markdown.contains("`--\(option.name)"), "--\(option.name) of \(spec.name)")
                #expect(man.contains(ManPageReference.font("B", "--\(option.name)")), "--\(option.name) of \(spec.name)")
            }
        }
        #expect(markdown.contains("\n" + #".leading dot, 'quote', back\\slash, \<tag\>, a\|b, \*star\*"# + "\n"))
        #expect(man.contains("\n" + #"\&.leading dot, 'quote', back\eslash, <tag>, a|b, *star*"# + "\n"))
        #expect(man.contains("\n--allow-ex and --dry-ex can't be used together.\n".replacingOccurrences(of: "-", with: #"\-"#)))
    }

    /// The reference's usage lines are the help's.
    @Test func synopsisOfEveryCommandIsItsUsageLine() {
        for spec in CommandSpec.all + [ExtraCommand.spec] {
            #expect(MarkdownReference.plain(CommandReference.synopsis(of: spec)) == spec.usage)
        }
    }

    @Test func everyExitCodeIsInBothFormats() {
        let markdown = CommandReference.text(.markdown, registry: .unimplemented)
        let man = CommandReference.text(.man, registry: .unimplemented)
        for code in ExitCode.allCases {
            #expect(markdown.contains("| \(code.rawValue) | \(MarkdownReference.escape(code.summary)) |"))
            #expect(man.contains(".TP\n\(code.rawValue)\n\(ManPageReference.escape(code.summary))\n"))
        }
    }

    @Test func roffSpecialsAreEscaped() {
        #expect(ManPageReference.escape(".start") == #"\&.start"#)
        #expect(ManPageReference.escape("'quoted' text") == #"\&'quoted' text"#)
        #expect(ManPageReference.escape("a 'quote' inside") == "a 'quote' inside")
        #expect(ManPageReference.escape(#"C:\dir"#) == #"C:\edir"#)
        #expect(ManPageReference.escape("--to 4") == #"\-\-to 4"#)
        #expect(ManPageReference.escape("v3 → v4, café") == #"v3 \[u2192] v4, caf\[u00E9]"#)
        #expect(ManPageReference.escape("two\nlines") == "two lines")
        #expect(ManPageReference.argument("say \"hi\"") == "\"say \\(dqhi\\(dq\"")
    }

    @Test func markdownSpecialsAreEscaped() {
        #expect(MarkdownReference.escape("<file>: a_b *c* [d](e) `f` |") == #"\<file\>: a\_b \*c\* \[d\](e) \`f\` \|"#)
        #expect(MarkdownReference.escape("# not a heading") == ##"\# not a heading"##)
        #expect(MarkdownReference.escape("- not an item") == #"\- not an item"#)
        #expect(MarkdownReference.escape("12. not an item") == #"12\. not an item"#)
        #expect(MarkdownReference.escape("12 items.") == "12 items.")
        #expect(MarkdownReference.escape(#"back\slash & more"#) == #"back\\slash \& more"#)
    }

    /// The page, with a command whose texts hold roff's specials, has no roff errors or warnings:
    /// `groff -man -ww -z` prints nothing.
    @Test func manPageRendersWithoutWarnings() throws {
        let groff = BuiltTool.which("groff")
        try SkippedTests.require(
            FileManager.default.isExecutableFile(atPath: groff),
            "groff not found: apt-get install groff-base (the roff escaping tests still run)")
        let page = FileManager.default.temporaryDirectory.appendingPathComponent("migrate-store-\(UUID().uuidString).1")
        defer { try? FileManager.default.removeItem(at: page) }
        let registry = CommandRegistry(CommandRegistry.all + [ExtraCommand.self])
        try CommandReference.text(.man, registry: registry).write(to: page, atomically: true, encoding: .utf8)
        let run = try BuiltTool.runProgram(groff, ["-man", "-ww", "-z", "-Tutf8", page.path])
        #expect(run == ToolRun(stdout: "", stderr: "", code: 0))
    }
}

/// A command no registry lists, with texts that hold what Markdown and roff would read as markup.
private struct ExtraCommand: Subcommand {
    static let allow = OptionSpec.flag("allow-ex", help: "A flag.")
    static let dryRun = OptionSpec.flag("dry-ex", help: "Another flag.")
    static let spec = CommandSpec(
        name: "extra-command", group: .inspecting,
        abstract: "A command added after the reference was written.",
        discussion: #".leading dot, 'quote', back\slash, <tag>, a|b, *star*"#,
        arguments: [.store],
        options: [
            allow, dryRun, .integer("level", valueName: "n", help: "A number.", default: 3),
            .string("from", valueName: "file", help: "A required file.", required: true),
        ],
        mutuallyExclusive: [[allow.name, dryRun.name]])

    init(_ arguments: ParsedArguments) {}
    func run(_ out: Output) throws -> ExitCode { .success }
}
