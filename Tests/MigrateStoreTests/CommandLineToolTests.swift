import Testing

@testable import MigrateStoreCLI

private struct Explosion: Error {}

@Suite struct CommandLineToolTests {
    @Test func versionPrintsNameAndVersion() {
        #expect(runInProcess(["--version"]) == ToolRun(stdout: "migrate-store 0.1.0\n", stderr: "", code: 0))
        #expect(runInProcess(["status", "--version"]).stdout == "migrate-store 0.1.0\n")
    }

    @Test func versionWithJSONIsOneObject() {
        #expect(
            runInProcess(["--json", "--version"]).stdout == """
                {
                  "command": "version",
                  "format_version": 1,
                  "name": "migrate-store",
                  "version": "0.1.0"
                }

                """)
    }

    @Test func commandHelpIsTheSameWithHelpCommandAndWithHelpFlags() {
        let expected = ToolRun(stdout: HelpFormatter.help(for: .migrate), stderr: "", code: 0)
        #expect(runInProcess(["help", "migrate"]) == expected)
        #expect(runInProcess(["migrate", "--help"]) == expected)
        #expect(runInProcess(["migrate", "-h"]) == expected)
        #expect(runInProcess(["migrate", "/s", "--bogus", "--help"]) == expected)
    }

    @Test func toolHelpIsPrintedByHelpAndByHelpFlags() {
        let expected = ToolRun(stdout: HelpFormatter.toolHelp(.unimplemented), stderr: "", code: 0)
        #expect(runInProcess(["help"]) == expected)
        #expect(runInProcess(["--help"]) == expected)
        #expect(runInProcess(["-h"]) == expected)
    }

    @Test func exitCodesTopicListsEveryExitCode() {
        let run = runInProcess(["help", "exit-codes"])
        #expect(run.code == 0)
        for code in ExitCode.allCases { #expect(run.stdout.contains("  \(code.rawValue) ")) }
    }

    @Test func missingCommandIsAUsageError() {
        #expect(
            runInProcess([])
                == ToolRun(
                    stdout: "",
                    stderr: """
                        Error: Missing command.
                        Usage: migrate-store <command> [options]
                        See 'migrate-store help'.

                        """, code: 64))
    }

    @Test func unknownCommandSuggestsTheClosestCommand() {
        #expect(runInProcess(["statu", "/s"]).stderr.hasPrefix("Error: Unknown command 'statu'. Did you mean 'status'?\n"))
        #expect(runInProcess(["hlep"]).stderr.hasPrefix("Error: Unknown command 'hlep'. Did you mean 'help'?\n"))
        #expect(runInProcess(["frobnicate"]).stderr.hasPrefix("Error: Unknown command 'frobnicate'.\n"))
    }

    @Test func helpForAnUnknownCommandShowsHelpUsage() {
        #expect(
            runInProcess(["help", "exit-code"])
                == ToolRun(
                    stdout: "",
                    stderr: """
                        Error: Unknown command 'exit-code'. Did you mean 'exit-codes'?
                        Usage: migrate-store help [<command>]
                        See 'migrate-store help'.

                        """, code: 64))
    }

    @Test func unknownTopLevelOptionSuggestsAGlobalOption() {
        #expect(runInProcess(["--verison"]).stderr.hasPrefix("Error: Unknown option '--verison'. Did you mean '--version'?\n"))
    }

    @Test func usageErrorOfACommandShowsThatCommandsUsage() {
        #expect(
            runInProcess(["rollback", "/s"])
                == ToolRun(
                    stdout: "",
                    stderr: """
                        Error: Missing required option '--from-backup <backup>'.
                        Usage: migrate-store rollback <store> --from-backup <backup> [options]
                        See 'migrate-store help rollback'.

                        """, code: 64))
    }

    @Test func unimplementedCommandFailsWithInternalError() {
        #expect(
            runInProcess(["status", "/s"])
                == ToolRun(stdout: "", stderr: "Error: 'status' is not implemented yet.\n", code: 70))
    }

    @Test func hookReadsParsedArgumentsAndItsExitCodeIsReturned() {
        let registry = CommandRegistry.with("queue") { arguments, out in
            out.print("\(arguments.argument("store")) \(arguments.list("locked"))")
            return .verificationFailed
        }
        #expect(
            runInProcess(["queue", "/s", "--locked", "a,b"], registry: registry)
                == ToolRun(stdout: "/s [\"a\", \"b\"]\n", stderr: "", code: 69))
    }

    @Test func commandErrorPrintsItsMessageAndExitsWithItsCode() {
        let registry = CommandRegistry.with("migrate") { _, _ in
            throw CommandError(.locked, "'/s' is locked by process 4242. Wait for it to finish.")
        }
        #expect(
            runInProcess(["migrate", "/s"], registry: registry)
                == ToolRun(
                    stdout: "", stderr: "Error: '/s' is locked by process 4242. Wait for it to finish.\n", code: 75))
    }

    @Test func unexpectedErrorIsReportedAsInternalError() {
        let registry = CommandRegistry.with("stats") { _, _ in throw Explosion() }
        #expect(
            runInProcess(["stats", "/s"], registry: registry)
                == ToolRun(stdout: "", stderr: "Error: Internal error: Explosion()\n", code: 70))
    }

    @Test func jsonModePrintsTheCommandsObjectAndNoText() {
        let registry = CommandRegistry.with("stats") { _, out in
            out.info("Counting...")
            out.print("8 work streams")
            out.emitJSON(["work_streams": 8])
            return .success
        }
        #expect(
            runInProcess(["stats", "/s", "--json"], registry: registry)
                == ToolRun(
                    stdout: """
                        {
                          "command": "stats",
                          "format_version": 1,
                          "work_streams": 8
                        }

                        """, stderr: "Counting...\n", code: 0))
    }

    @Test func jsonModeFailureStillPrintsOneObjectWithTheError() {
        #expect(
            runInProcess(["--json", "plan", "/s", "--to", "two"])
                == ToolRun(
                    stdout: """
                        {
                          "command": "plan",
                          "error": {
                            "exit_code": 64,
                            "message": "--to expects an integer, got 'two'."
                          },
                          "format_version": 1
                        }

                        """,
                    stderr: """
                        Error: --to expects an integer, got 'two'.
                        Usage: migrate-store plan <store> [options]
                        See 'migrate-store help plan'.

                        """, code: 64))
    }

    @Test func jsonModeSuccessWithoutAnObjectPrintsABareOne() {
        let registry = CommandRegistry.with("validate") { _, _ in .success }
        #expect(
            runInProcess(["validate", "/s", "--json"], registry: registry).stdout
                == "{\n  \"command\": \"validate\",\n  \"format_version\": 1\n}\n")
    }

    @Test func quietHidesInformationButNotResultsOrErrors() {
        let registry = CommandRegistry.with("backup") { _, out in
            out.info("Copying...")
            out.print("Backed up.")
            out.warning("1 file skipped.")
            throw CommandError(.ioError, "Can't read 'x'.")
        }
        #expect(
            runInProcess(["backup", "/s", "/b", "--quiet"], registry: registry)
                == ToolRun(
                    stdout: "Backed up.\n", stderr: "Warning: 1 file skipped.\nError: Can't read 'x'.\n", code: 74))
    }

    @Test func globalFlagsAfterDoubleDashAreArguments() {
        let registry = CommandRegistry.with("export") { arguments, out in
            out.print("\(arguments.argument("file")) json=\(arguments.isJSON)")
            return .success
        }
        #expect(runInProcess(["export", "/s", "--", "--json"], registry: registry).stdout == "--json json=false\n")
    }
}
