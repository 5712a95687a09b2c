import JSONStore

/// `migrate-store backup <store> <dest>`: a consistent, verified backup (see `Backup.create`).
///
/// ```
/// $ migrate-store backup store store.backup
/// Backed up 14 files (32566 bytes, schema version 2) from 'store' to 'store.backup'.
/// ...
/// ```
struct BackupCommand: Subcommand {
    static let dest = ArgumentSpec(name: "dest", help: "The backup directory to create. It must not exist.")

    static let spec = CommandSpec(
        name: "backup", group: .backupAndRestore,
        abstract: "Copy a store to a new backup and verify the copy.",
        discussion: """
            Copies every document, leaving out the store's own bookkeeping files (names starting \
            with a dot), then reads the copy back and compares it with the store.
            """,
        arguments: [.store, dest])

    let store: String, destination: String

    init(_ arguments: ParsedArguments) { (store, destination) = (arguments.value(.store), arguments.value(Self.dest)) }

    func run(_ out: Output) throws -> ExitCode {
        let report = try Backup.create(store: store, destination: destination, tool: ToolInfo.name, version: ToolInfo.version)
        let files = report.manifest.files.count
        out.print("Backed up \(counted(files, "file")) (\(report.totalBytes) bytes, schema version "
                  + "\(report.manifest.storeSchemaVersion)) from '\(store)' to '\(destination)'.")
        if report.linkedFiles > 0 {
            out.info("Hard-linked \(counted(report.linkedFiles, "file")) (same file system; the store never changes a file "
                     + "in place, so a link keeps the snapshot) and copied \(report.copiedFiles).")
        } else {
            out.info("Copied every file.")
        }
        out.info("Verified: every file matches its size and SHA-256. To check it yourself: "
                 + "cd \(TextFormat.shellWord(destination)) && sha256sum -c SHA256SUMS")
        for problem in report.unreadableDocuments {
            out.warning("the store's document \(problem); it was backed up as it is, and verify-backup will report it.")
        }
        out.emitJSON([
            "store": .string(store), "backup": .string(destination), "files": .int(files),
            "bytes": .int(Int(report.totalBytes)), "store_schema_version": .int(report.manifest.storeSchemaVersion),
            "linked_files": .int(report.linkedFiles), "copied_files": .int(report.copiedFiles), "verified": true,
            "unreadable_documents": .array(report.unreadableDocuments.map(\.json)),
        ])
        return .success
    }
}
