import Foundation
// The support every test target shares (temp folders, samples, trees, child processes), for every
// file of this target.
@_exported import TestSupport
import Testing

@testable import JSONStore

/// The file's bytes, or nil if there is no file. Reads with Foundation, independently of the code under test.
func contents(_ path: String) -> [UInt8]? {
    FileManager.default.contents(atPath: path).map { Array($0) }
}

/// Writes a file with Foundation and sets its mode, as setup.
func plant(_ path: String, _ text: String, mode: mode_t = 0o600, sourceLocation: SourceLocation = #_sourceLocation) {
    let created = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
    #expect(created && chmod(path, mode) == 0, "setup: can't create '\(path)'", sourceLocation: sourceLocation)
}

/// `lstat`'s permission bits, nil if nothing is there.
func permissions(_ path: String) -> mode_t? {
    var status = stat()
    guard lstat(path, &status) == 0 else { return nil }
    return status.st_mode & 0o7777
}

/// Names in `directory` that look like our temp files.
func temporaryFiles(in directory: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasPrefix(".tmp-") }.sorted()
}

/// UTF-8 bytes of `text`.
func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

/// The errnos every fault sweep injects, with the code each must map to.
let sweptErrnos: [(errno: Int32, code: StoreError.Code)] = [(EIO, .io), (ENOSPC, .noSpace), (EACCES, .permissionDenied)]

/// Runs `body` with the Nth call failing, for N = 1, 2, ... until a run makes fewer calls than N
/// (the fault was never injected). Returns how many runs injected a fault.
@discardableResult
func forEveryCall(
    failing fault: FaultInjectingCalls.Fault, kinds: Set<String>? = nil, persistent: Bool = false,
    _ body: (FaultInjectingCalls, Int) throws -> Void
) rethrows -> Int {
    var callNumber = 1
    while true {
        let faults = FaultInjectingCalls(.init(callNumber: callNumber, kinds: kinds, fault: fault, persistent: persistent))
        try body(faults, callNumber)
        if faults.injected.isEmpty { return callNumber - 1 }
        callNumber += 1
    }
}
