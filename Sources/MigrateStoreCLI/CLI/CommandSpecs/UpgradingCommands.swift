extension CommandSpec {
    /// `--to <version>`: the schema version to upgrade to.
    static let targetVersion = OptionSpec.integer(
        "to", valueName: "version", help: "The schema version to upgrade to.", minimum: 1, default: 2)

    /// `status <store>`
    static let status = CommandSpec(
        name: "status", group: .upgrading,
        abstract: "Show the schema version and whether to migrate.",
        discussion: """
            Reads the manifest and every document without changing anything. Reports the schema \
            version, the number of work streams, user customisations and queue entries, documents \
            that can't be read, and whether an interrupted migration needs to be finished.
            """,
        arguments: [.store])

    /// `plan <store> [--to 2]`
    static let plan = CommandSpec(
        name: "plan", group: .upgrading,
        abstract: "Show what a migration would change; write nothing.",
        discussion: """
            Lists every change the migration would make: keys added to each work stream, message \
            session ids corrected, queue positions renumbered, and the queue.json it would write. \
            Running 'migrate' afterwards makes exactly these changes.
            """,
        arguments: [.store],
        options: [targetVersion])

    /// `migrate <store> [--to 2] [--backup-dir DIR | --no-backup]`
    static let migrate = CommandSpec(
        name: "migrate", group: .upgrading,
        abstract: "Upgrade a store to a newer schema version.",
        discussion: """
            Takes a backup and verifies it before the first write, migrates every document, and \
            writes store.json last. If a migration was interrupted, running 'migrate' again \
            finishes it. Migrating a store that is already at the target version changes nothing.

            The app's older versions can still read the migrated store: schema version 2 only adds keys.
            """,
        arguments: [.store],
        options: [
            targetVersion,
            .string("backup-dir", valueName: "dir",
                    help: "Where to create the backup taken before the first write. The default is a new "
                        + "directory next to the store."),
            .flag("no-backup", help: "Don't take a backup. Use only when you have your own copy of the store."),
        ],
        mutuallyExclusive: [["backup-dir", "no-backup"]])

    /// `verify <store> [--against BACKUP]`
    static let verify = CommandSpec(
        name: "verify", group: .upgrading,
        abstract: "Check a migrated store against older app versions.",
        discussion: """
            Checks every document: an older reader decodes it, sees the values it saw before the \
            migration (apart from the reported corrections), keeps the new keys when it rewrites the \
            document, and derives the same queue. With --against, the values are compared with that \
            backup. Exits with status 69 when a check fails.
            """,
        arguments: [.store],
        options: [
            .string("against", valueName: "backup",
                    help: "A backup of the store from before the migration to compare with."),
        ])

    /// `rollback <store> --from-backup BACKUP`
    static let rollback = CommandSpec(
        name: "rollback", group: .upgrading,
        abstract: "Put back the store from its pre-migration backup.",
        discussion: """
            Rarely needed: the app's older versions read a migrated store as it is. Use this to \
            undo a migration completely. The backup is verified before the store is touched.
            """,
        arguments: [.store],
        options: [
            .string("from-backup", valueName: "backup",
                    help: "The backup taken before the migration.", required: true),
        ])
}
