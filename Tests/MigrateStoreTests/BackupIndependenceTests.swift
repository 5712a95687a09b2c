import Foundation
import Testing

/// A backup survives a hand edit of the store: its files are copies (or copy-on-write clones),
/// not the store's inodes. With `--link` they are the store's inodes, and the same edit damages
/// the backup: the risk `--link`'s help states, shown here.
@Suite struct BackupIndependenceTests {
    /// Overwrites the first bytes of `path` in place, as `vim` on a multiply-linked file or a
    /// script's `open(path, "r+")` does: same inode, no rename.
    func editInPlace(_ path: String, _ bytes: String) throws {
        let fd = open(path, O_RDWR)
        try #require(fd >= 0, "open \(path): errno \(errno)")
        defer { close(fd) }
        let written = Array(bytes.utf8).withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        try #require(written == bytes.utf8.count)
    }

    func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    @Test func anInPlaceEditOfTheStoreLeavesTheBackupIntact() throws {
        let scratch = TemporaryDirectory()
        let store = try scratch.copySample("v2-store", as: "store")
        let run = try BuiltTool.run(["--json", "backup", store, scratch("b")])
        #expect(run.code == 0, "\(run)")
        #expect(run.stdout.contains("\"linked_files\": 0") && run.stdout.contains("\"copied_files\": 15"))
        let settings = "/settings.json", session = "/sessions/ad9a22b8-a0a3-4cf2-b7a4-205cd0ba062b.json"
        let before = (try bytes(store + settings), try bytes(store + session))
        try editInPlace(store + settings, "{\"x\":1}")
        try editInPlace(store + session, "XXXXXXXX")
        #expect(try bytes(store + settings) != before.0)
        #expect(try bytes(scratch("b") + settings) == before.0)
        #expect(try bytes(scratch("b") + session) == before.1)
        let verified = try BuiltTool.run(["verify-backup", scratch("b")])
        #expect(verified.code == 0, "\(verified)")
        #expect(verified.stdout.hasPrefix("OK: '\(scratch("b"))' is complete: 15 files"))
    }

    /// The documented risk of `--link`: the backup's file is the store's file, so the same edit
    /// reaches the backup, and `verify-backup` reports it as corrupt (exit 69), after the fact.
    @Test func withLinkTheSameEditDamagesTheBackup() throws {
        let scratch = TemporaryDirectory()
        let store = try scratch.copySample("v2-store", as: "store")
        let run = try BuiltTool.run(["backup", store, scratch("b"), "--link"])
        #expect(run.code == 0, "\(run)")
        #expect(
            run.stdout.contains(
                "Hard-linked 15 files (--link: an in-place edit of one of the store's files changes the "
                    + "backup too) and copied 0."))
        let settings = "/settings.json"
        let before = try bytes(scratch("b") + settings)
        try editInPlace(store + settings, "{\"x\":1}")
        #expect(try bytes(scratch("b") + settings) != before)
        #expect(try bytes(scratch("b") + settings) == (try bytes(store + settings)))
        let verified = try BuiltTool.run(["verify-backup", scratch("b")])
        #expect(verified.code == 69, "\(verified)")
        #expect(verified.stderr.contains("'settings.json'"))
    }
}
