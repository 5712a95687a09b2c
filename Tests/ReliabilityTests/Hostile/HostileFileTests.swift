import Foundation
import Schema
import Testing

@testable import JSONStore

/// Hostile files (issue part 5): links, FIFOs and folders where documents belong, names that try
/// to leave the store. Nothing outside the store is read as data or written; nothing hangs.
@Suite struct HostileFileTests {
    /// A store copied from a sample, and a folder outside it that a hostile link points to,
    /// holding valid documents (so reading them would look like success) and a secret file.
    final class Setup {
        let scratch: TemporaryDirectory
        let store: String
        let outside: String
        let outsideBefore: [String: [UInt8]]

        init(_ sample: String = Samples.v1Store, label: String = #function) throws {
            scratch = TemporaryDirectory(label)
            store = try scratch.copy(sample, as: "store")
            outside = scratch("outside")
            try FileManager.default.copyItem(atPath: sample + "/sessions", toPath: outside)
            try Data("secret\n".utf8).write(to: URL(fileURLWithPath: outside + "/secret.txt"))
            outsideBefore = rootedTree(outside, includeDotNames: true)
        }

        /// Nothing outside the store changed: same files, same bytes, no new entry (not even a temp or lock file).
        func outsideIsUntouched(sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(rootedTree(outside, includeDotNames: true) == outsideBefore, "a file outside the store was written", sourceLocation: sourceLocation)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: outside)) ?? []
            #expect(names.filter { $0.hasPrefix(".") }.isEmpty, "dot files appeared outside the store: \(names)", sourceLocation: sourceLocation)
        }
    }

    static let readOnly = Store.Options(readOnly: true, tool: "reliability-tests", version: "1", lockTimeout: .zero)
    static let writable = Store.Options(readOnly: false, tool: "reliability-tests", version: "1", lockTimeout: .zero)
    /// A work stream with a customisation in both samples.
    static let someID = "555a622d-4eba-4eda-8989-fc9e679fc303"

    // MARK: A linked folder

    @Test(arguments: ["sessions", "user-sessions"])
    func linkedDocumentFolderIsRefusedNeverReadNorWritten(_ folder: String) throws {
        let setup = try Setup(Samples.v2Store)
        try FileManager.default.removeItem(atPath: setup.store + "/" + folder)
        try FileManager.default.createSymbolicLink(atPath: setup.store + "/" + folder, withDestinationPath: setup.outside)
        let storeBefore = rootedTree(setup.store, includeDotNames: true)

        for options in [Self.readOnly, Self.writable] {
            let error = #expect(throws: StoreError.self) { _ = try Store.open(at: setup.store, options: options) }
            #expect(error?.code == .symlinkRefused)
            #expect(error?.path == setup.store + "/" + folder)
            #expect(error?.message.contains("symbolic link") == true)
        }
        for command in [["status"], ["plan"], ["migrate", "--no-backup"], ["verify"]] {
            let run = try Tool.migrate([command[0], setup.store] + command.dropFirst())
            #expect(run.code == 65, "\(command): \(run)")
            #expect(run.stderr.contains("'\(setup.store)/\(folder)'") && run.stderr.contains("symbolic link"), "\(command): \(run.stderr)")
            #expect(!run.stdout.contains("secret"))
        }
        setup.outsideIsUntouched()
        #expect(rootedTree(setup.store, includeDotNames: true) == storeBefore)
    }

    @Test func linkedSessionsFolderInV1StoreIsNotMigratedOrSweptThroughTheLink() throws {
        // Outside: exactly the store's documents (so nothing looks wrong) and a file named like a
        // leftover temp file, which a sweep through the link would delete.
        let scratch = TemporaryDirectory()
        let store = try scratch.copy(Samples.v1Store, as: "store")
        let outside = scratch("outside")
        try FileManager.default.moveItem(atPath: store + "/sessions", toPath: outside)
        try Data().write(to: URL(fileURLWithPath: outside + "/.tmp-0123456789abcdef-x.json"))
        try FileManager.default.createSymbolicLink(atPath: store + "/sessions", withDestinationPath: outside)
        let before = rootedTree(outside, includeDotNames: true)
        for command in [["migrate", "--no-backup"], ["migrate"]] {
            let run = try Tool.migrate([command[0], store] + command.dropFirst())
            #expect(run.code == 65 && run.stderr.contains("symbolic link"), "\(command): \(run)")
        }
        #expect(throws: StoreError.self) { _ = try Store.open(at: store) }
        #expect(rootedTree(outside, includeDotNames: true) == before, "the folder outside the store was written through the link")
    }

    // MARK: A linked document

    @Test func linkedDocumentIsReportedNotFollowed() throws {
        let setup = try Setup(Samples.v1Store)
        let document = setup.store + "/sessions/\(Self.someID).json"
        try FileManager.default.removeItem(atPath: document)
        try FileManager.default.createSymbolicLink(atPath: document, withDestinationPath: setup.outside + "/\(Self.someID).json")

        let store = try Store.open(at: setup.store, options: Self.readOnly)
        let listing = try store.listWorkStreams()
        #expect(listing.problems.map(\.code) == [.symlinkRefused])
        #expect(listing.problems.first?.path == document)
        #expect(!listing.items.contains { $0.id.lowercased == Self.someID })
        let direct = #expect(throws: StoreError.self) { _ = try store.workStream(UUID(uuidString: Self.someID)!) }
        #expect(direct?.code == .symlinkRefused)

        for command in [["status"], ["plan"], ["migrate", "--no-backup"]] {
            let run = try Tool.migrate([command[0], setup.store] + command.dropFirst())
            #expect(run.code == 65 && run.stderr.contains(document) || run.stdout.contains(document), "\(command): \(run)")
        }
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: document)) == setup.outside + "/\(Self.someID).json")
        setup.outsideIsUntouched()
    }

    @Test func writeToWorkStreamWhoseFileIsALinkIsRefused() throws {
        let setup = try Setup(Samples.v4Store)
        let document = setup.store + "/sessions/\(Self.someID).json"
        try FileManager.default.removeItem(atPath: document)
        try FileManager.default.createSymbolicLink(atPath: document, withDestinationPath: setup.outside + "/\(Self.someID).json")
        let store = try Store.open(at: setup.store, options: Self.writable)
        let error = #expect(throws: StoreError.self) {
            try store.createWorkStream(id: UUID(uuidString: Self.someID)!, workingDirectory: "/x")
        }
        #expect(error?.code == .alreadyExists || error?.code == .symlinkRefused)
        let setName = #expect(throws: StoreError.self) { try store.enqueue(UUID(uuidString: Self.someID)!) }
        #expect(setName != nil)
        setup.outsideIsUntouched()
    }

    // MARK: FIFOs and folders in place of documents

    @Test(arguments: ["store.json", "settings.json", "queue.json", "sessions/\(someID).json", "user-sessions/\(someID).json", ".lock"])
    func fifoInPlaceOfAFileNeverHangs(_ relative: String) throws {
        let setup = try Setup(Samples.v2Store)
        let path = setup.store + "/" + relative
        try? FileManager.default.removeItem(atPath: path)
        try #require(mkfifo(path, 0o600) == 0)
        for command in [["status"], ["plan"], ["verify"], ["migrate", "--no-backup"]] {
            let run = try Tool.migrate([command[0], setup.store] + command.dropFirst(), timeLimit: 20)
            #expect(!run.timedOut, "\(command) hung on a FIFO at '\(relative)'")
            if relative == ".lock" {
                #expect([0, 65].contains(run.code), "\(command): \(run)")
            } else {
                #expect(Self.reportsBadFile(run, command: command[0], path: path), "\(command): \(run)")
            }
        }
        var status = stat()
        #expect(lstat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO, "the FIFO was replaced")
    }

    @Test(arguments: ["store.json", "settings.json", "queue.json", "sessions/\(someID).json", "user-sessions/\(someID).json"])
    func folderInPlaceOfADocumentIsReported(_ relative: String) throws {
        let setup = try Setup(Samples.v2Store)
        let path = setup.store + "/" + relative
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        let before = rootedTree(setup.store, includeDotNames: true)
        for command in [["status"], ["plan"], ["verify"], ["migrate", "--no-backup"]] {
            let run = try Tool.migrate([command[0], setup.store] + command.dropFirst(), timeLimit: 20)
            #expect(Self.reportsBadFile(run, command: command[0], path: path), "\(command): \(run)")
        }
        #expect(rootedTree(setup.store) == before.filter { !$0.key.hasPrefix("/.") })
    }

    /// Exit 65 naming the file (`verify` reports it as a failed check: exit 69, or 65 before it starts).
    static func reportsBadFile(_ run: ToolRun, command: String, path: String) -> Bool {
        let codes: Set<Int32> = command == "verify" ? [65, 69] : [65]
        return codes.contains(run.code) && (run.stderr + run.stdout).contains(path)
    }

    // MARK: Names that try to leave the store

    @Test func traversalNamesAreNeverValidIDs() throws {
        for name in [
            "../etc/passwd", "..", ".", "/etc/passwd", "..%2f..%2fetc", "a/../../b", "\(Self.someID)/..", "../\(Self.someID)",
            Self.someID.uppercased(), Self.someID + "\0", " " + Self.someID, Self.someID + ".json", "~/x", "\\..\\..\\x",
        ] {
            #expect(DocumentID(name) == nil, "'\(name)' was accepted as an id")
            #expect(DocumentID(fileName: name + ".json") == nil || name == Self.someID)
            #expect(throws: StoreError.self) { try DocumentID(validating: name) }
        }
    }

    @Test func oddNamesInDocumentFoldersAreReportedNeverRead() throws {
        let setup = try Setup(Samples.v1Store)
        let sessions = setup.store + "/sessions"
        let odd = [
            "..json", "...json", "%2e%2e%2fsecret.json", Self.someID.uppercased() + ".json", "name\nwith newline.json",
            String(repeating: "a", count: 250) + ".json", "\(Self.someID).json.bak", "\(Self.someID).JSON", "-rf.json", "*.json",
        ]
        for name in odd { try Data("{\"secret\": true}\n".utf8).write(to: URL(fileURLWithPath: sessions + "/" + name)) }
        // Names starting with a dot are the store's bookkeeping, which readers skip (spec §1).
        let reported = odd.filter { !$0.hasPrefix(".") }
        let store = try Store.open(at: setup.store, options: Self.readOnly)
        let listing = try store.listWorkStreams()
        #expect(listing.problems.count == reported.count)
        #expect(Set(listing.problems.compactMap(\.path)) == Set(reported.map { sessions + "/" + $0 }))
        #expect(listing.problems.allSatisfy { $0.code == .invalidFileName })
        #expect(listing.items.count == 8)
        let run = try Tool.migrate(["migrate", setup.store, "--no-backup"])
        #expect(run.code == 65, "\(run)")
        #expect(
            rootedTree(setup.store)
                == rootedTree(Samples.v1Store).merging(reported.map { ("/sessions/" + $0, Array("{\"secret\": true}\n".utf8)) }) { a, _ in a })
    }
}
