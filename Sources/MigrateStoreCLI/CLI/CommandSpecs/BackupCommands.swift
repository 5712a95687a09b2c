extension CommandSpec {
    /// `backup <store> <dest>`
    static let backup = CommandSpec(
        name: "backup", group: .backupAndRestore,
        abstract: "Copy a store to a new backup and verify the copy.",
        discussion: """
            Copies every document, leaving out the store's own bookkeeping files (names starting \
            with a dot), then reads the copy back and compares it with the store.
            """,
        arguments: [
            .store,
            ArgumentSpec(name: "dest", help: "The backup directory to create. It must not exist."),
        ])

    /// `verify-backup <backup>`
    static let verifyBackup = CommandSpec(
        name: "verify-backup", group: .backupAndRestore,
        abstract: "Check that a backup is complete and readable.",
        discussion: "Exits with status 69 when the backup is incomplete or a document differs.",
        arguments: [.backup])

    /// `restore <backup> <store> [--dry-run] [--force] [--migrate]`
    static let restore = CommandSpec(
        name: "restore", group: .backupAndRestore,
        abstract: "Restore a store from a backup.",
        discussion: """
            Verifies the backup, then copies it to the store directory. An existing store is \
            replaced only with --force.
            """,
        arguments: [
            .backup,
            ArgumentSpec(name: "store", help: "The store directory to restore into."),
        ],
        options: [
            .flag("dry-run", help: "Show what would be restored, writing nothing."),
            .flag("force", help: "Replace the store if it already exists."),
            .flag("migrate", help: "Migrate the restored store to the newest schema version."),
        ])

    /// `export <store> <file>`
    static let export = CommandSpec(
        name: "export", group: .backupAndRestore,
        abstract: "Write a whole store as one JSON file.",
        arguments: [
            .store,
            ArgumentSpec(name: "file", help: "The file to create, or '-' for standard output."),
        ])

    /// `import <file> <store>`
    static let `import` = CommandSpec(
        name: "import", group: .backupAndRestore,
        abstract: "Create a store from a file written by 'export'.",
        arguments: [
            ArgumentSpec(name: "file", help: "The exported file, or '-' for standard input."),
            ArgumentSpec(name: "store", help: "The store directory to create."),
        ])
}

extension CommandSpec {
    /// Every command, in the order the top-level help lists them.
    static let all: [CommandSpec] = [
        status, plan, migrate, verify, rollback,
        list, show, queue, stats, validate,
        backup, verifyBackup, restore, export, `import`,
    ]
}
