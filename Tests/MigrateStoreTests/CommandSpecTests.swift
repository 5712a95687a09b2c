import Testing

@testable import MigrateStoreCLI

@Suite struct CommandSpecTests {
    @Test func registryListsTheNineteenCommandsInHelpOrder() {
        #expect(
            CommandRegistry.unimplemented.commands.map(\.spec.name) == [
                "status", "plan", "migrate", "verify", "rollback",
                "ls", "show", "queue", "stats", "settings", "validate",
                "backup", "verify-backup", "restore", "export", "import", "import-coredata", "list-backups", "prune-backups",
            ])
    }

    @Test(arguments: CommandSpec.all.map(\.name))
    func everySpecIsWellFormed(name: String) throws {
        let spec = try #require(CommandSpec.all.first { $0.name == name })
        let optionNames = spec.allOptions.map(\.name)
        #expect(Set(optionNames).count == optionNames.count, "option names clash with each other or the globals")
        #expect(Set(spec.arguments.map(\.name)).isDisjoint(with: optionNames))
        for group in spec.mutuallyExclusive { #expect(group.allSatisfy(optionNames.contains)) }
        #expect(
            spec.abstract.hasSuffix(".") && spec.abstract.count <= HelpFormatter.width - HelpFormatter.helpColumn,
            "an abstract is one sentence that fits the help column")
        for option in spec.allOptions {
            #expect(option.help.hasSuffix("."), "--\(option.name)")
        }
    }

    @Test func usageLineShowsArgumentsAndRequiredOptions() {
        #expect(MigrateCommand.spec.usage == "migrate-store migrate <store> [options]")
        #expect(RollbackCommand.spec.usage == "migrate-store rollback <store> --from-backup <backup> [options]")
        #expect(RestoreCommand.spec.usage == "migrate-store restore <backup> <store> [options]")
    }

    @Test func hooksAreCalledForTheirCommandAndTheFallbackForTheRest() {
        let registry = CommandRegistry.with("stats") { _, out in
            out.print("stats ran")
            return .success
        }
        #expect(
            runInProcess(["stats", "/s"], registry: registry)
                == ToolRun(stdout: "stats ran\n", stderr: "", code: 0))
        #expect(runInProcess(["status", "/s"], registry: registry).code == 70)
    }
}

@Suite struct CommandImplementationTests {
    /// Every command the help lists is the tool's own: the default registry is exactly the list of types.
    @Test func everyCommandHasAnImplementation() {
        #expect(CommandRegistry().commands.map(\.spec.name) == CommandSpec.all.map(\.name))
    }
}
