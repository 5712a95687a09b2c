import JSONStore

/// `migrate-store verify-backup <backup>`: checks a backup without changing it
/// (see `BackupVerification.verify`).
///
/// Exit status: 0 when the backup is complete and intact; 64 when the path does not exist or is
/// a folder with neither `backup.json` nor `SHA256SUMS` (`PathRole`); 69 when it is corrupt (a file missing,
/// extra, changed, truncated, not a regular file, a hostile path, a document that does not read);
/// 65 when it is incompatible (a newer backup format or store schema than this tool reads).
struct VerifyBackupCommand: Subcommand {
    static let spec = CommandSpec(
        name: "verify-backup", group: .backupAndRestore,
        abstract: "Check that a backup is complete and readable.",
        discussion: "Exits with status 69 when the backup is incomplete or a document differs, and 65 when "
            + "this tool can't read it (a newer backup format or store schema).",
        arguments: [.backup])

    let backup: String

    init(_ arguments: ParsedArguments) { backup = arguments.value(.backup) }

    func run(_ out: Output) throws -> ExitCode {
        // On a terminal, after a second: "Verifying backup: 12/40 files".
        let progress = OperationProgress(out)
        let report = try BackupVerification.verify(backup: backup) { progress.show($0) }
        progress.finish()
        out.emitJSON([
            "backup": .string(backup), "status": .string(report.status.name),
            "files": .int(report.fileCount), "bytes": .int(Int(report.totalBytes)),
            "store_schema_version": report.manifest.map { .int($0.storeSchemaVersion) } ?? .null,
            "problems": .array(report.problems.map(\.json)),
        ])
        switch report.status {
        case .ok:
            let version = report.manifest.map { ", schema version \($0.storeSchemaVersion)" } ?? ""
            out.print(
                "OK: '\(backup)' is complete: \(counted(report.fileCount, "file")) (\(report.totalBytes) bytes\(version)); "
                    + "every size and SHA-256 matches and every document reads.")
            return .success
        case .corrupt, .incompatible:
            let verdict = report.status == .corrupt ? "is corrupt" : "can't be read by this version of the tool"
            out.error("'\(backup)' \(verdict): \(counted(report.problems.count, "problem")):")
            out.printProblems(report.problems)
            return ArchiveExit.code(for: report.status)
        }
    }
}
