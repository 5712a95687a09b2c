import Foundation
import Testing

@testable import JSONStore

@Suite struct DirectoriesTests {
    @Test func newFolderIs0700AndExistingFolderKeepsItsMode() throws {
        let dir = TemporaryDirectory()
        #expect(try Directories.create(dir("sessions")) == true)
        #expect(permissions(dir("sessions")) == 0o700)
        #expect(mkdir(dir("shared"), 0o700) == 0 && chmod(dir("shared"), 0o750) == 0)
        #expect(try Directories.create(dir("shared")) == false)
        #expect(permissions(dir("shared")) == 0o750)
    }

    @Test func linkOrFileInPlaceOfFolderIsRefused() {
        let dir = TemporaryDirectory()
        #expect(mkdir(dir("real"), 0o700) == 0 && symlink(dir("real"), dir("link")) == 0)
        plant(dir("file"), "x")
        let linkError = #expect(throws: StoreError.self) { try Directories.create(dir("link")) }
        #expect(linkError?.code == .symlinkRefused)
        let fileError = #expect(throws: StoreError.self) { try Directories.create(dir("file")) }
        #expect(fileError?.code == .notARegularFile)
    }

    @Test func folderCreationFailingAtEveryCallLeavesNoFolder() throws {
        var runs = 0
        for (errno, code) in sweptErrnos {
            runs += try forEveryCall(failing: .error(errno)) { faults, _ in
                let dir = TemporaryDirectory()
                do {
                    try Directories.create(dir("sessions"), system: .injecting(faults))
                    #expect(permissions(dir("sessions")) == 0o700)
                } catch let error as StoreError {
                    #expect(error.errno == errno && error.code == code && error.path == dir("sessions"))
                    #expect(permissions(dir("sessions")) == nil, "call log: \(faults.log)")
                }
            }
        }
        print("Directories fault sweep: \(runs) runs with an injected errno")
        #expect(runs >= 3 * 6)
    }

    @Test func parentOfPath() {
        #expect(Directories.parent(of: "/a/b/c") == "/a/b")
        #expect(Directories.parent(of: "/a/b/") == "/a")
        #expect(Directories.parent(of: "/a") == "/")
        #expect(Directories.parent(of: "a") == ".")
        #expect(Directories.parent(of: "a/b") == "a")
    }
}

@Suite struct FileReaderTests {
    @Test func readReturnsExactBytes() throws {
        let dir = TemporaryDirectory()
        let data = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        #expect(FileManager.default.createFile(atPath: dir("a.json"), contents: Data(data)))
        #expect(try FileReader.read(dir("a.json")) == data)
        plant(dir("empty.json"), "")
        #expect(try FileReader.read(dir("empty.json")) == [])
    }

    @Test func readEnforcesSizeLimitExactly() throws {
        let dir = TemporaryDirectory()
        plant(dir("a.json"), "0123456789")
        #expect(try FileReader.read(dir("a.json"), limit: 10) == bytes("0123456789"))
        let error = #expect(throws: StoreError.self) { _ = try FileReader.read(dir("a.json"), limit: 9) }
        #expect(error?.code == .fileTooLarge && error?.path == dir("a.json"))
    }

    @Test func readRefusesLinkFifoAndFolderWithoutBlocking() throws {
        let dir = TemporaryDirectory()
        plant(dir("real.json"), "x")
        #expect(symlink(dir("real.json"), dir("link.json")) == 0)
        #expect(mkfifo(dir("fifo.json"), 0o600) == 0)
        #expect(mkdir(dir("folder.json"), 0o700) == 0)
        let linkError = #expect(throws: StoreError.self) { _ = try FileReader.read(dir("link.json")) }
        #expect(linkError?.code == .symlinkRefused && linkError?.errno == ELOOP && linkError?.path == dir("link.json"))
        let fifoError = #expect(throws: StoreError.self) { _ = try FileReader.read(dir("fifo.json")) }
        #expect(fifoError?.code == .notARegularFile)
        let folderError = #expect(throws: StoreError.self) { _ = try FileReader.read(dir("folder.json")) }
        #expect(folderError?.code == .notARegularFile)
    }

    @Test func missingFileIsNotFoundWithPath() {
        let dir = TemporaryDirectory()
        let error = #expect(throws: StoreError.self) { _ = try FileReader.read(dir("missing.json")) }
        #expect(error?.code == .notFound && error?.errno == ENOENT && error?.syscall == "open")
        #expect(error?.message == "Can't read '\(dir("missing.json"))': it or a folder on its path does not exist (ENOENT). Check the path.")
    }

    /// The size from `fstat` is only a hint: a file that grew after it (or a wrong hint) is still
    /// read whole, and the limit + 1 rule holds whatever the hint.
    @Test func readAllIsExactWhateverTheSizeHint() throws {
        let dir = TemporaryDirectory()
        let content = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
        try Data(content).write(to: URL(fileURLWithPath: dir("big.json")))
        for hint in [0, 1, 3, 65_535, 65_536, 199_999, 200_000, 200_001, 1_000_000] {
            for limit in [FileReader.defaultLimit, 200_000, 199_999, 70_000, 0] {
                let fd = open(dir("big.json"), O_RDONLY)
                #expect(fd >= 0)
                defer { close(fd) }
                let read = try SystemCalls.real.readAll(fd, limit: limit, sizeHint: hint, context: ErrorContext("read", dir("big.json")))
                let expected = Array(content.prefix(limit + 1))
                #expect(read == expected, "hint \(hint), limit \(limit): \(read.count) bytes")
            }
        }
    }

    @Test func readFailingAtEveryCallThrowsInjectedErrno() throws {
        let dir = TemporaryDirectory()
        plant(dir("a.json"), "content")
        for (errno, code) in sweptErrnos {
            try forEveryCall(failing: .error(errno)) { faults, _ in
                do {
                    let read = try FileReader.read(dir("a.json"), system: .injecting(faults))
                    #expect(read == bytes("content"))
                    #expect(faults.injected.allSatisfy { $0.kind == "close" })
                } catch let error as StoreError {
                    #expect(error.errno == errno && error.code == code && error.path == dir("a.json"))
                }
            }
        }
    }
}
