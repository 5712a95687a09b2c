import Foundation
import JSONStore
import Testing

@testable import MigrateStoreCLI

/// Issue 17 item 14: one exit-code rule for the same fault whichever command meets it.
@Suite struct ErrorExitRuleTests {
    static let d664 = "sessions/d664cf84-65da-4768-8ba1-acf742bdc1f1.json"

    /// chmod 000 does not stop root from reading: as root, the tool runs as `nobody`
    /// (``UnprivilegedTool``); skipped as root without runuser(1).
    @Test func unreadableDocumentIs74ForEveryCommandThatMeetsIt() throws {
        let fixture = try InspectFixture("v2-store")
        try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: fixture.path(Self.d664))
        let tool = try UnprivilegedTool(owning: fixture.root)
        try SkippedTests.require(tool != nil, "running as root without runuser(1): chmod 000 does not stop root's reads")
        for command in ["status", "ls", "queue", "stats", "validate", "migrate"] {
            let run = try tool!.run([command, fixture.store] + (command == "migrate" ? ["--no-backup"] : []))
            #expect(run.code == 74, "\(command): \(run)")
        }
    }

    /// (d) A document `backup` can't read is named as the store's file, never as the copy in
    /// its staging folder (which is removed when the backup fails).
    @Test(arguments: [false, true])
    func backupOfAnUnreadableDocumentNamesTheStoresFile(link: Bool) throws {
        let fixture = try InspectFixture("v2-store")
        try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: fixture.path(Self.d664))
        let tool = try UnprivilegedTool(owning: fixture.root)
        try SkippedTests.require(tool != nil, "running as root without runuser(1): chmod 000 does not stop root's reads")
        let run = try tool!.run(["backup", fixture.store, fixture.root("backup")] + (link ? ["--link"] : []))
        #expect(run.code == 74, "\(run)")
        #expect(run.stderr.hasPrefix("Error: Can't read '\(fixture.path(Self.d664))': permission was denied (EACCES)."), "\(run.stderr)")
        #expect(!run.stderr.contains("staging"), "\(run.stderr)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: fixture.root.path).sorted()
                == ["migrate-store", "v2-store"].filter { $0 != "migrate-store" || geteuid() == 0 })
    }

    @Test func ioFailureAmongProblemsIs74AndABadDocumentIs65() {
        let bad = StoreProblem(file: "sessions/x.json", code: "invalid_json", message: "m", fix: "f")
        let io = StoreProblem(file: "sessions/y.json", code: "unreadable_file", message: "m", fix: "f")
        #expect(ProblemExit.code([bad]) == .dataError)
        #expect(ProblemExit.code([bad, io]) == .ioError)
        #expect(ProblemExit.code([StoreError(.corruptDocument, "bad")]) == .dataError)
        #expect(ProblemExit.code([StoreError(.corruptDocument, "bad"), StoreError(.io, "failed")]) == .ioError)
    }

    /// `stats` leaves these entries out of its counts; it now says so with 65, as `validate` does.
    @Test(arguments: ["symbolic link", "FIFO", "folder", "badly named file"])
    func statsExits65WhenSessionsHoldsAnEntryThatIsNoDocument(kind: String) throws {
        let fixture = try InspectFixture("v2-store")
        let path = fixture.path(kind == "badly named file" ? "sessions/notes.json" : "sessions/0f0f0f0f-1111-4222-8333-444444444444.json")
        switch kind {
        case "symbolic link": try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: fixture.path(Self.d664))
        case "FIFO": #expect(mkfifo(path, 0o644) == 0)
        case "folder": try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        default: try fixture.write("sessions/notes.json", "{}\n")
        }
        let validate = try fixture.run("validate")
        #expect(validate.code == 65, "\(validate)")
        let stats = try fixture.run("stats")
        #expect(stats.code == 65, "\(stats)")
        #expect(
            stats.stderr == "Error: '<store>' has 1 entry in its document folders that is no document (a symbolic link, FIFO, folder or badly named file); "
                + "they are left out of the counts. Run 'migrate-store validate <store>' for every problem.\n", "\(kind)")
    }
}

/// (e) `backup` and `export` only read the store: with its lock busy they say that they wait for
/// its holder, then that the store is locked by it and can't be backed up or exported (not
/// "Can't write"), and exit 75.
@Suite struct BusyLockMessageTests {
    @Test(arguments: ["backup", "export"])
    func busyLockNamesTheHolderAndExits75(command: String) throws {
        let fixture = try InspectFixture("v2-store")
        let output = fixture.root(command == "backup" ? "backup" : "store.export")
        let run = try StoreLock.withExclusiveLock(store: fixture.store, tool: "lock-test", version: "9.9") { _ in
            try fixture.run(command, [output])
        }
        #expect(run.code == 75, "\(run)")
        let action = command == "backup" ? "back up" : "export"
        let lines = run.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 3 && lines[2].isEmpty, "\(run.stderr)")
        #expect(
            lines.first?.hasPrefix("Waiting for process \(getpid()) (lock-test 9.9) since ") == true
                && lines.first?.hasSuffix(" to release '<store>' (up to 10 s).") == true, "\(run.stderr)")
        #expect(
            lines.dropFirst().first?.hasPrefix("Error: Can't \(action) '<store>': it is locked by process \(getpid()) (lock-test 9.9)") == true,
            "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))
    }
}

/// (c) A full disk while `migrate` stages its temp files is reported as a full disk, not as a
/// document that can't be read. A real full disk: a 512 KiB tmpfs (needs root or
/// CAP_SYS_ADMIN; skipped otherwise), filled after the store and its lock file are in place.
@Suite struct FullDiskMessageTests {
    @Test func fullDiskWhileStagingSaysTheDiskIsFull() throws {
        let scratch = TemporaryDirectory()
        let disk = try SmallDisk(at: scratch("disk"))
        defer { disk.unmount() }
        let mount = disk.path
        let store = mount + "/store"
        try Samples.copy("v1-store", to: store)
        // The lock record fits in the page the file already has, so the lock is taken; the
        // first write that needs a new page is a staged work stream's.
        try Data(repeating: 0x20, count: 300).write(to: URL(fileURLWithPath: store + "/.lock"))
        let before = snapshot(store).mapValues(\.bytes).filter { $0.key != ".lock" }
        let filler = open(mount + "/filler", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        try #require(filler >= 0)
        let page = [UInt8](repeating: 0, count: 4096)
        while write(filler, page, page.count) > 0 {}
        close(filler)

        let run = try BuiltTool.run(["migrate", store, "--no-backup"])
        #expect(run.code == 74, "\(run)")
        #expect(run.stderr.hasPrefix("Error: Can't write '\(store)/sessions/"), "\(run.stderr)")
        #expect(run.stderr.contains("the disk is full (ENOSPC). Free some space and try again."), "\(run.stderr)")
        #expect(!run.stderr.contains("can't be read"), "\(run.stderr)")
        #expect(snapshot(store).mapValues(\.bytes).filter { $0.key != ".lock" } == before, "the store changed")
    }
}

/// The built tool run as a user whom chmod 000 stops: this user when it is not root; as root,
/// `nobody` through runuser(1), on a copy of the binary in `root`, which is handed to nobody
/// (with everything in it). nil as root without runuser.
struct UnprivilegedTool {
    let executable: String
    let launcher: [String]

    init?(owning root: TemporaryDirectory) throws {
        guard geteuid() == 0 else {
            (executable, launcher) = (BuiltTool.executable.path, [])
            return
        }
        guard let runuser = ["/usr/sbin/runuser", "/sbin/runuser"].first(where: FileManager.default.isExecutableFile(atPath:)) else { return nil }
        executable = root("migrate-store")
        try FileManager.default.copyItem(atPath: BuiltTool.executable.path, toPath: executable)
        let nobody: uid_t = 65534
        var paths = [root.path]
        if let entries = FileManager.default.enumerator(atPath: root.path) {
            while let entry = entries.nextObject() as? String { paths.append(root(entry)) }
        }
        for path in paths { #expect(lchown(path, nobody, gid_t(nobody)) == 0, "chown '\(path)'") }
        launcher = [runuser, "-u", "nobody", "--"]
    }

    func run(_ arguments: [String]) throws -> ToolRun {
        try BuiltTool.runProgram(executable, arguments, launcher: launcher, timeLimit: 120)
    }
}
