import JSONStore

/// `migrate-store backup <store> <dest> [--link]`: a consistent, verified backup (see `Backup.create`).
///
/// ```
/// $ migrate-store backup store store.backup
/// Backed up 14 files (32566 bytes, schema version 2) from 'store' to 'store.backup'.
/// ...
/// ```
struct BackupCommand: Subcommand {
    static let dest = ArgumentSpec(name: "dest", help: "The backup directory to create. It must not exist.")
    static let link = OptionSpec.flag(
        "link",
        help: "Hard-link the store's files instead of copying them (same file system only): faster and "
            + "takes no space, but risky: a linked file is the store's file, so an in-place edit of the store "
            + "(an editor that writes in place, a script opening a file with 'r+') changes the backup too.")

    static let spec = CommandSpec(
        name: "backup", group: .backupAndRestore,
        abstract: "Copy a store to a new backup and verify the copy.",
        discussion: """
            Reads the store as a store first: one this tool can't read (a version it does not \
            know, or work streams outside the folder store.json names) is refused with status \
            65 and nothing is created. Copies every document, leaving out the store's own \
            bookkeeping files (names starting with a dot), then reads the copy back and \
            compares it with the store. Where the file \
            system can (Btrfs, XFS, APFS), a copy is a copy-on-write clone: no blocks are copied, \
            and it stays independent of the store's file.
            """,
        arguments: [.store, dest],
        options: [link])

    let store: String, destination: String
    let options: Backup.Options

    init(_ arguments: ParsedArguments) {
        (store, destination) = (arguments.value(.store), arguments.value(Self.dest))
        options = Backup.Options(allowHardLinks: arguments.flag(Self.link))
    }

    func run(_ out: Output) throws -> ExitCode {
        // On a terminal, after a second: "Backing up: 12/40 files", then "Verifying backup: 12/40 files".
        let progress = OperationProgress(out)
        let report = try Backup.create(
            store: store, destination: destination, tool: ToolInfo.name, version: ToolInfo.version,
            options: options
        ) { progress.show($0) }
        progress.finish()
        let files = report.manifest.files.count
        out.print(
            "Backed up \(counted(files, "file")) (\(report.totalBytes) bytes, schema version "
                + "\(report.manifest.storeSchemaVersion)) from '\(store)' to '\(destination)'.")
        if report.linkedFiles > 0 {
            out.info(
                "Hard-linked \(counted(report.linkedFiles, "file")) (--link: an in-place edit of one of the store's "
                    + "files changes the backup too) and copied \(report.copiedFiles).")
        } else if report.clonedFiles > 0 {
            out.info("Copied every file (\(report.clonedFiles) as copy-on-write clones, independent of the store's files).")
        } else {
            out.info("Copied every file.")
        }
        out.info(
            "Verified: every file matches its size and SHA-256. To check it yourself: "
                + "cd \(TextFormat.shellWord(destination)) && sha256sum -c SHA256SUMS")
        for problem in report.unreadableDocuments {
            out.warning("the store's document \(problem); it was backed up as it is, and verify-backup will report it.")
        }
        for folder in report.removedStagingFolders {
            out.info("Removed '\(folder)', the partial copy of an interrupted backup.")
        }
        out.emitJSON([
            "store": .string(store), "backup": .string(destination), "files": .int(files),
            "bytes": .int(Int(report.totalBytes)), "store_schema_version": .int(report.manifest.storeSchemaVersion),
            "linked_files": .int(report.linkedFiles), "copied_files": .int(report.copiedFiles),
            "cloned_files": .int(report.clonedFiles), "verified": true,
            "unreadable_documents": .array(report.unreadableDocuments.map(\.json)),
            "removed_staging_folders": .array(report.removedStagingFolders.map(JSONOutputValue.string)),
        ])
        return .success
    }
}
