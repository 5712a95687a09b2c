import Foundation
import JSONStore
import Testing

@testable import MigrateStoreCLI

/// The progress lines of `backup`, `verify-backup`, `export`, `import`, `restore`, `rollback`,
/// `migrate`, `verify`, `validate` and `stats`:
/// drawn on standard error only when it is a terminal, nothing else changed. The commands run in
/// process with the `OutputStreams` seam saying whether standard error is a terminal, and with
/// no delay and no redraw limit, so every update is drawn and the bytes are exact.
@Suite struct OperationProgressTests {
    /// The v2 sample's store files.
    private static let files = 15

    /// Runs the real command line in process; `terminal` is what standard error claims to be.
    private static func run(_ words: [String], terminal: Bool) -> ToolRun {
        let captured = CapturedOutput()
        let output = Output(streams: captured.streams(terminal: terminal))
        output.progressTiming = (delay: .zero, redrawInterval: .zero)
        output.progressClock = { .zero }  // frozen: the rate and time left (after a second) are ProgressLineTests' concern
        let code = CommandLineTool(registry: CommandRegistry()).run(words, output: output)
        return ToolRun(stdout: captured.stdout, stderr: captured.stderr, code: code.rawValue)
    }

    /// `Label: 0/15 files` … `Label: 15/15 files` (`Label: 0 files` … without a total).
    private static func counts(_ label: String, total: Int?, upTo last: Int = files, unit: String = "files") -> [String] {
        (0...last).map { done in "\(label): \(done)" + (total.map { "/\($0)" } ?? "") + " " + unit }
    }

    /// What a progress line that draws every update writes for `texts`: each redrawn over the one
    /// before with `\r` (padded to blank a longer one), then the blanking at the end.
    private static func drawn(_ texts: [String]) -> String {
        var bytes = ""
        var width = 0
        for text in texts {
            bytes += "\r" + text + String(repeating: " ", count: max(0, width - text.count))
            width = text.count
        }
        return bytes + "\r" + String(repeating: " ", count: width) + "\r"
    }

    /// A copy of the v2 sample at `<folder>/store` and its backup at `<folder>/backup`.
    private static func storeAndBackup(_ folder: TemporaryDirectory) throws -> (store: String, backup: String) {
        let store = try folder.copySample("v2-store", as: "store")
        let backup = run(["backup", store, folder("backup")], terminal: false)
        #expect(backup.code == 0, "\(backup)")
        return (store, folder("backup"))
    }

    @Test func backupDrawsBothPhasesOnATerminalAndBlanksTheLine() throws {
        let folder = TemporaryDirectory()
        let store = try folder.copySample("v2-store", as: "store")
        let run = Self.run(["backup", store, folder("b")], terminal: true)
        #expect(run.code == 0, "\(run)")
        #expect(
            run.stderr == Self.drawn(Self.counts("Backing up", total: Self.files))
                + Self.drawn(Self.counts("Verifying backup", total: Self.files)))
    }

    @Test func backupDrawsNothingWhenStandardErrorIsNotATerminalAndPrintsTheSameResult() throws {
        let folder = TemporaryDirectory()
        let store = try folder.copySample("v2-store", as: "store")
        let plain = Self.run(["backup", store, folder("plain")], terminal: false)
        let drawn = Self.run(["backup", store, folder("drawn")], terminal: true)
        #expect(plain.code == 0 && drawn.code == 0)
        #expect(plain.stderr == "")
        #expect(drawn.stdout.replacingOccurrences(of: folder("drawn"), with: folder("plain")) == plain.stdout)
        #expect(plain.stdout.hasPrefix("Backed up 15 files ("))
    }

    @Test func jsonOutputIsTheSameOnATerminal() throws {
        let folder = TemporaryDirectory()
        let (_, backup) = try Self.storeAndBackup(folder)
        let plain = Self.run(["--json", "verify-backup", backup], terminal: false)
        let drawn = Self.run(["--json", "verify-backup", backup], terminal: true)
        #expect(plain.code == 0 && drawn.code == 0)
        #expect(drawn.stdout == plain.stdout && plain.stdout.hasPrefix("{"))
        #expect(plain.stderr == "")
        #expect(drawn.stderr == Self.drawn(Self.counts("Verifying backup", total: Self.files)))
    }

    @Test func verifyBackupDrawsItsCheckOfEveryFileOnATerminalOnly() throws {
        let folder = TemporaryDirectory()
        let (_, backup) = try Self.storeAndBackup(folder)
        let drawn = Self.run(["verify-backup", backup], terminal: true)
        let plain = Self.run(["verify-backup", backup], terminal: false)
        #expect(drawn.code == 0 && plain.code == 0)
        #expect(drawn.stderr == Self.drawn(Self.counts("Verifying backup", total: Self.files)))
        #expect(plain.stderr == "" && drawn.stdout == plain.stdout)
    }

    @Test func exportAndImportDrawTheirFilesOnATerminalOnly() throws {
        let folder = TemporaryDirectory()
        let store = try folder.copySample("v2-store", as: "store")
        let export = Self.run(["export", store, folder("e.jsonl")], terminal: true)
        #expect(export.code == 0, "\(export)")
        #expect(export.stderr == Self.drawn(Self.counts("Exporting", total: Self.files)))
        #expect(Self.run(["export", store, folder("quiet.jsonl")], terminal: false).stderr == "")

        let imported = Self.run(["import", folder("e.jsonl"), folder("imported")], terminal: true)
        #expect(imported.code == 0, "\(imported)")
        // The export's header gives the import its total.
        #expect(
            imported.stderr == Self.drawn(Self.counts("Importing", total: Self.files))
                + Self.drawn(Self.counts("Verifying copy", total: Self.files)))
        let plain = Self.run(["import", folder("e.jsonl"), folder("plain")], terminal: false)
        #expect(plain.code == 0 && plain.stderr == "")
    }

    @Test func restoreAndRollbackDrawVerificationCopyAndReadBackOnATerminalOnly() throws {
        let folder = TemporaryDirectory()
        let (store, backup) = try Self.storeAndBackup(folder)
        let phases =
            Self.drawn(Self.counts("Verifying backup", total: Self.files))
            + Self.drawn(Self.counts("Restoring", total: Self.files)) + Self.drawn(Self.counts("Verifying copy", total: Self.files))
        let restore = Self.run(["restore", backup, folder("restored")], terminal: true)
        #expect(restore.code == 0, "\(restore)")
        #expect(restore.stderr == phases)
        #expect(Self.run(["restore", backup, folder("plain")], terminal: false).stderr == "")

        let rollback = Self.run(["rollback", store, "--from-backup", backup], terminal: true)
        #expect(rollback.code == 0, "\(rollback)")
        #expect(rollback.stderr == phases)
    }

    @Test func importOfAnExportWithoutAFileCountInItsHeaderDrawsNoTotal() throws {
        let folder = TemporaryDirectory()
        // Written by the build before issue 19, whose header has no file count: 15 files of the v3 sample.
        let oldExport = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Golden/export-v3-store-before-issue-19.jsonl").path
        let imported = Self.run(["import", oldExport, folder("imported")], terminal: true)
        #expect(imported.code == 0, "\(imported)")
        #expect(
            imported.stderr == Self.drawn(Self.counts("Importing", total: nil))
                + Self.drawn(Self.counts("Verifying copy", total: Self.files)))
    }

    @Test func migrateDrawsEachPhaseOfTheUpgradeOnATerminalOnly() throws {
        let folder = TemporaryDirectory()
        let store = try folder.copySample("v1-store", as: "store")
        let plainStore = try folder.copySample("v1-store", as: "plain")
        let run = Self.run(["migrate", store, "--backup-dir", folder("backup")], terminal: true)
        #expect(run.code == 0, "\(run)")
        let files = try BackupVerification.verify(backup: folder("backup")).fileCount
        // The old sessions/ the folder exchange replaced: the sample's eight work streams, removed in one slice.
        #expect(
            run.stderr == Self.drawn(Self.counts("Validating", total: 8, upTo: 8, unit: "work streams"))
                + Self.drawn(Self.counts("Backing up", total: files, upTo: files))
                + Self.drawn(Self.counts("Verifying backup", total: files, upTo: files))
                + Self.drawn(Self.counts("Migrating", total: 8, upTo: 8, unit: "work streams"))
                + Self.drawn(["Removing the old files: 0/8 files", "Removing the old files: 8/8 files"]))
        let plain = Self.run(["migrate", plainStore, "--backup-dir", folder("plain-backup")], terminal: false)
        #expect(plain.code == 0 && plain.stderr == "", "\(plain)")
    }

    @Test func verifyDrawsItsWorkStreamsOnATerminalForAV3AndAV4Store() throws {
        let folder = TemporaryDirectory()
        for sample in ["v3-store", "v5-store"] {
            let store = try folder.copySample(sample, as: sample)
            let drawn = Self.run(["verify", store], terminal: true)
            let plain = Self.run(["verify", store], terminal: false)
            #expect(drawn.code == 0 && plain.code == 0, "\(drawn)")
            #expect(drawn.stderr == Self.drawn(Self.counts("Verifying", total: 8, upTo: 8, unit: "work streams")), "\(sample)")
            #expect(plain.stderr == "" && drawn.stdout == plain.stdout)
        }
    }

    @Test func validateAndStatsDrawTheirWorkStreamsOnATerminalOnly() throws {
        let folder = TemporaryDirectory()
        let store = try folder.copySample("v2-store", as: "store")
        for command in ["validate", "stats"] {
            let drawn = Self.run([command, store], terminal: true)
            let plain = Self.run([command, store], terminal: false)
            #expect(drawn.code == 0 && plain.code == 0, "\(drawn)")
            #expect(drawn.stderr == Self.drawn(Self.counts("Validating", total: 8, upTo: 8, unit: "work streams")), "\(command)")
            #expect(plain.stderr == "" && drawn.stdout == plain.stdout, "\(command)")
        }
    }

    @Test func quietDrawsNoProgressEvenOnATerminal() throws {
        let folder = TemporaryDirectory()
        let store = try folder.copySample("v2-store", as: "store")
        let run = Self.run(["--quiet", "backup", store, folder("b")], terminal: true)
        #expect(run.code == 0 && run.stderr == "")
    }
}
