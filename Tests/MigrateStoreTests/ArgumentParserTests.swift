import Testing

@testable import MigrateStoreCLI

/// Parses `words` for `spec`, failing the test on a usage error.
private func parse(
    _ spec: CommandSpec, _ words: [String], sourceLocation: SourceLocation = #_sourceLocation
) throws -> ParsedArguments {
    do {
        return try ArgumentParser(spec: spec).parse(words)
    } catch {
        Issue.record("unexpected usage error: \(error.message)", sourceLocation: sourceLocation)
        throw error
    }
}

/// The message of the usage error that parsing `words` throws, or nil if it parses.
private func usageMessage(_ spec: CommandSpec, _ words: [String]) -> String? {
    do {
        _ = try ArgumentParser(spec: spec).parse(words)
        return nil
    } catch {
        #expect(error.command == spec.name, "a usage error names its command for the usage line")
        return error.message
    }
}

@Suite struct ArgumentParserTests {
    @Test func positionalArgumentsAreReadByNameAndDefaultsFillMissingOptions() throws {
        let parsed = try parse(.plan, ["/data/store"])
        #expect(parsed.command == "plan")
        #expect(parsed.argument("store") == "/data/store")
        #expect(parsed.integer("to") == nil, "without --to, migrate picks the default target from the store")
        #expect(!parsed.wasGiven("to"))
    }

    @Test func optionValueMayFollowAsNextWordOrAfterEquals() throws {
        #expect(try parse(.plan, ["/s", "--to", "1"]).integer("to") == 1)
        #expect(try parse(.plan, ["/s", "--to=1"]).integer("to") == 1)
        #expect(try parse(.plan, ["--to=1", "/s"]).argument("store") == "/s")
        #expect(try parse(.migrate, ["/s", "--backup-dir=/b=c"]).option("backup-dir") == "/b=c")
    }

    @Test func unknownOptionSuggestsTheClosestKnownOption() {
        #expect(usageMessage(.status, ["/s", "--jsn"]) == "Unknown option '--jsn'. Did you mean '--json'?")
        #expect(usageMessage(.migrate, ["/s", "--no-bakup"]) == "Unknown option '--no-bakup'. Did you mean '--no-backup'?")
        #expect(usageMessage(.status, ["/s", "--jsn=1"]) == "Unknown option '--jsn'. Did you mean '--json'?")
        #expect(usageMessage(.status, ["/s", "-json"]) == "Unknown option '-json'. Did you mean '--json'?")
    }

    @Test func unknownOptionFarFromEveryKnownOptionGetsNoSuggestion() {
        #expect(usageMessage(.status, ["/s", "--frobnicate"]) == "Unknown option '--frobnicate'.")
        #expect(usageMessage(.status, ["/s", "-x"]) == "Unknown option '-x'.")
    }

    @Test func missingPositionalArgumentIsNamed() {
        #expect(usageMessage(.migrate, []) == "Missing expected argument '<store>'.")
        #expect(usageMessage(.show, ["/s"]) == "Missing expected argument '<id-or-prefix>'.")
    }

    @Test func extraPositionalArgumentIsRejected() {
        #expect(usageMessage(.status, ["/s", "extra"]) == "Unexpected argument 'extra'.")
    }

    @Test func optionWithoutItsValueIsRejected() {
        #expect(usageMessage(.migrate, ["/s", "--backup-dir"]) == "Missing value for '--backup-dir <dir>'.")
        #expect(usageMessage(.migrate, ["/s", "--backup-dir", "--json"]) == "Missing value for '--backup-dir <dir>'.")
        #expect(usageMessage(.plan, ["/s", "--to="]) == "Missing value for '--to <version>'.")
    }

    @Test func integerOptionRejectsTextAndValuesBelowItsMinimum() {
        #expect(usageMessage(.plan, ["/s", "--to", "two"]) == "--to expects an integer, got 'two'.")
        #expect(usageMessage(.plan, ["/s", "--to", "0"]) == "--to expects an integer of at least 1, got '0'.")
        #expect(
            usageMessage(.show, ["/s", "ab", "--messages", "-3"])
                == "--messages expects an integer of at least 0, got '-3'.")
    }

    @Test func choiceOptionAcceptsOnlyItsValuesAndSuggestsACloseOne() throws {
        #expect(try parse(.list, ["/s"]).option("sort") == "last-modified")
        #expect(try parse(.list, ["/s", "--sort", "queue"]).option("sort") == "queue")
        #expect(
            usageMessage(.list, ["/s", "--sort", "size"])
                == "--sort expects one of 'last-modified', 'name' or 'queue', got 'size'.")
        #expect(
            usageMessage(.list, ["/s", "--sort=nme"])
                == "--sort expects one of 'last-modified', 'name' or 'queue', got 'nme'. Did you mean 'name'?")
    }

    @Test func listOptionSplitsAtCommasAndAddsUpRepeats() throws {
        #expect(try parse(.queue, ["/s"]).list("locked") == [])
        #expect(try parse(.queue, ["/s", "--locked", "a,b", "--locked=c"]).list("locked") == ["a", "b", "c"])
        #expect(try parse(.queue, ["/s", "--locked", " a , ,b,"]).list("locked") == ["a", "b"])
        let empty = try parse(.queue, ["/s", "--locked="])
        #expect(empty.list("locked") == [] && empty.wasGiven("locked"))
    }

    @Test func doubleDashEndsOptionsAndLoneDashIsAnArgument() throws {
        let exported = try parse(.export, ["--", "--json", "-"])
        #expect(exported.argument("store") == "--json")
        #expect(exported.argument("file") == "-")
        #expect(!exported.isJSON)
        #expect(try parse(.import, ["-", "/s"]).argument("file") == "-")
    }

    @Test func mutuallyExclusiveOptionsCannotBeGivenTogether() throws {
        #expect(
            usageMessage(.migrate, ["/s", "--backup-dir", "/b", "--no-backup"])
                == "Options '--backup-dir' and '--no-backup' cannot be used together.")
        #expect(try parse(.migrate, ["/s", "--no-backup"]).flag("no-backup"))
        #expect(try parse(.migrate, ["/s", "--backup-dir", "/b"]).option("backup-dir") == "/b")
    }

    @Test func requiredOptionMustBeGiven() throws {
        #expect(usageMessage(.rollback, ["/s"]) == "Missing required option '--from-backup <backup>'.")
        #expect(try parse(.rollback, ["/s", "--from-backup", "/b"]).option("from-backup") == "/b")
    }

    @Test func flagsAreSetOnlyWhenGivenAndTakeNoValue() throws {
        let parsed = try parse(.restore, ["/b", "/s", "--dry-run", "--force", "--force"])
        #expect(parsed.flag("dry-run") && parsed.flag("force") && !parsed.flag("migrate"))
        #expect(usageMessage(.restore, ["/b", "/s", "--force=yes"]) == "Flag '--force' doesn't take a value.")
    }

    @Test func singleValueOptionGivenTwiceIsRejected() {
        #expect(usageMessage(.plan, ["/s", "--to", "2", "--to=2"]) == "Option '--to' was given more than once.")
    }

    @Test func globalFlagsAreAcceptedByEveryCommand() throws {
        for spec in CommandSpec.all {
            let words = spec.arguments.map { _ in "x" } + spec.options.filter(\.isRequired).flatMap { ["--\($0.name)", "1"] }
            let parsed = try parse(spec, words + ["--json", "--quiet"])
            #expect(parsed.isJSON && parsed.isQuiet, "\(spec.name)")
        }
    }

    @Test func helpAndVersionAreFoundBeforeParsingButNotAfterDoubleDash() {
        #expect(ArgumentParser.requestedInformation(in: ["--help"]) == .help)
        #expect(ArgumentParser.requestedInformation(in: ["/s", "-h", "--version"]) == .help)
        #expect(ArgumentParser.requestedInformation(in: ["--bogus", "--version"]) == .version)
        #expect(ArgumentParser.requestedInformation(in: ["/s", "--", "--help"]) == nil)
        #expect(ArgumentParser.requestedInformation(in: ["/s"]) == nil)
    }
}
