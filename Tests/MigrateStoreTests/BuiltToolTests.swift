import Foundation
import Testing

/// Runs the real executable, as a user would.
@Suite struct BuiltToolTests {
    @Test func versionPrintsNameAndVersionAndExitsZero() throws {
        #expect(try BuiltTool.run(["--version"]) == ToolRun(stdout: "migrate-store 0.1.0\n", stderr: "", code: 0))
    }

    @Test func helpListsCommandsByGroup() throws {
        #expect(
            try BuiltTool.run(["help"])
                == ToolRun(
                    stdout: """
                        OVERVIEW: Upgrade, inspect, back up and restore a work-stream store.

                        A store is a directory of JSON documents holding a voice-coding client's work
                        streams, user customisations, settings and (from schema version 2) its queues.
                        'migrate' takes a verified backup before its first write unless --no-backup is
                        given, and takes a step that older app versions can't read only with
                        --allow-breaking. 'restore' and 'rollback' verify the backup first and keep the
                        store they replace next to it.

                        USAGE: migrate-store <command> [options]

                        UPGRADING:
                          status                  Show the schema version and whether to migrate.
                          plan                    Show what a migration would change; write nothing.
                          migrate                 Upgrade a store to a newer schema version.
                          verify                  Check a migrated store against older app versions.
                          rollback                Put back the store from its pre-migration backup.

                        INSPECTING:
                          ls                      List the work streams in a store.
                          show                    Show one work stream and its latest messages.
                          queue                   Show the queues as the app displays them.
                          stats                   Count the documents, messages and bytes in a store.
                          settings                Print the app's settings that the store keeps.
                          validate                Check every document and report every problem.

                        BACKUP AND RESTORE:
                          backup                  Copy a store to a new backup and verify the copy.
                          verify-backup           Check that a backup is complete and readable.
                          restore                 Restore a store from a backup.
                          export                  Write a whole store as one JSON file.
                          import                  Create a store from a file written by 'export'.
                          import-coredata         Create a store from the app's Core Data file.
                          list-backups            List the backups beside a store and their sizes.
                          prune-backups           Remove old backups beside a store; keep the newest.

                        HELP TOPICS:
                          exit-codes              What each exit status means.

                        OPTIONS:
                          --json                  Print one JSON object on standard output.
                          --quiet                 Print only results and errors: no progress or info.
                          --version               Print the version and exit.
                          -h, --help              Show help information.

                        See 'migrate-store help <command>' for detailed help.

                        """, stderr: "", code: 0))
    }

    @Test func helpMigrateDescribesArgumentsAndOptions() throws {
        #expect(
            try BuiltTool.run(["help", "migrate"])
                == ToolRun(
                    stdout: """
                        OVERVIEW: Upgrade a store to a newer schema version.

                        Takes a backup and verifies it before the first write (unless --no-backup is
                        given), migrates every document, and writes store.json last. Without --to it
                        goes to the newest version that every app version the store admits can still
                        read (along the rollback-safe steps, which only add keys). If a migration was
                        interrupted, running 'migrate' again finishes it. On a store already at the
                        target version it only brings up to date what an older app version wrote since
                        (the reconcile 'plan' shows), if anything. A breaking step (v4 → v5: older app
                        versions are refused afterwards) runs only with --to 5 --allow-breaking, after a
                        verified backup; 'migrate --to 4' on a v5 store runs its exact inverse.

                        USAGE: migrate-store migrate <store> [options]

                        ARGUMENTS:
                          <store>                 The store directory.

                        OPTIONS:
                          --to <version>          The schema version to migrate to (1 to 5). The default
                                                  is the newest version that every app version the store
                                                  admits can still read.
                          --allow-breaking        Take a breaking step (--to 5): older app versions are
                                                  refused afterwards. Needs a backup (not with
                                                  --no-backup).
                          --backup-dir <dir>      Where to create the backup taken before the first
                                                  write. The default is a new directory next to the
                                                  store.
                          --no-backup             Don't take a backup. Use only when you have your own
                                                  copy of the store.
                          --json                  Print one JSON object on standard output.
                          --quiet                 Print only results and errors: no progress or info.
                          --version               Print the version and exit.
                          -h, --help              Show help information.

                        """, stderr: "", code: 0))
    }

    @Test func unknownCommandExits64AndSuggestsTheClosest() throws {
        #expect(
            try BuiltTool.run(["migrat", "/tmp/store"])
                == ToolRun(
                    stdout: "",
                    stderr: """
                        Error: Unknown command 'migrat'. Did you mean 'migrate'?
                        Usage: migrate-store <command> [options]
                        See 'migrate-store help'.

                        """, code: 64))
    }

    @Test func unknownOptionExits64AndShowsTheCommandsUsage() throws {
        #expect(
            try BuiltTool.run(["status", "/tmp/store", "--jsn"])
                == ToolRun(
                    stdout: "",
                    stderr: """
                        Error: Unknown option '--jsn'. Did you mean '--json'?
                        Usage: migrate-store status <store> [options]
                        See 'migrate-store help status'.

                        """, code: 64))
    }

    @Test func missingStoreIsAUsageErrorNamingTheFix() throws {
        let missing = "/tmp/migrate-store-no-such-store-\(UUID().uuidString.prefix(8))"
        #expect(
            try BuiltTool.run(["status", missing])
                == ToolRun(
                    stdout: "",
                    stderr: """
                        Error: '\(missing)' does not exist, so it is not a store. Check the path.

                        """, code: 64))
    }
}
