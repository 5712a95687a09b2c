import Testing

@testable import JSONStore

@Suite struct StoreErrorTests {
    @Test func errnoMapsToCode() {
        let expected: [(Int32, StoreError.Code)] = [
            (ENOSPC, .noSpace), (EDQUOT, .noSpace), (EACCES, .permissionDenied), (EPERM, .permissionDenied),
            (EROFS, .readOnlyFileSystem), (ENOENT, .notFound), (ENOTDIR, .notFound), (ELOOP, .symlinkRefused),
            (EIO, .io), (EEXIST, .alreadyExists), (EISDIR, .notARegularFile), (EWOULDBLOCK, .locked), (EXDEV, .io),
        ]
        for (errno, code) in expected {
            let error = StoreError.systemCall("open", errno: errno, context: ErrorContext("write", "/s/a.json"))
            #expect(error.code == code, "\(ErrnoDescription.name(errno))")
            #expect(error.errno == errno && error.syscall == "open" && error.path == "/s/a.json")
        }
    }

    @Test func messageNamesThingAndWayOut() {
        let error = StoreError.systemCall(
            "fsync", errno: ENOSPC,
            context: ErrorContext("write", "/s/sessions/x.json", note: "the previous version of the file is unchanged"))
        #expect(
            error.message == "Can't write '/s/sessions/x.json': the disk is full (ENOSPC). Free some space and try again; "
                + "the previous version of the file is unchanged.")
        #expect(error.description == error.message + " (fsync: ENOSPC)")
        #expect(error.file.hasSuffix("StoreErrorTests.swift"))
    }

    @Test func unknownErrnoUsesSystemWordingAndNumber() {
        let error = StoreError.systemCall("rename", errno: EXDEV, context: ErrorContext("write", "/s/a.json"))
        #expect(error.message.hasPrefix("Can't write '/s/a.json': "))
        #expect(error.message.hasSuffix(" (EXDEV)."))
        #expect(ErrnoDescription.name(12345) == "errno 12345")
    }

    @Test func codesCompareAndPrint() {
        #expect(StoreError.Code.noSpace == .noSpace)
        #expect(StoreError.Code.noSpace != .io)
        #expect(StoreError.Code.symlinkRefused.description == "symlinkRefused")
    }
}
