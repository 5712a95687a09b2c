import JSONStore

/// The exit status of a command that finished but left documents out, by the one rule of
/// `ExitCodeMapping`: a failure of the operating system to read a file (permission, I/O) is 74
/// wherever it happens, the same as when `migrate` meets it; a bad document or an entry that
/// is not a document is 65.
enum ProblemExit {
    /// The code `StoreProblem(_:in:)` gives a store error from the operating system.
    static let ioProblemCode = "unreadable_file"

    /// 74 if any problem is an I/O failure, else 65.
    static func code(_ problems: [StoreProblem]) -> ExitCode {
        problems.contains { $0.code == ioProblemCode } ? .ioError : .dataError
    }

    /// 74 if any error is an I/O failure (`StoreError.exitCode`), else 65.
    static func code(_ errors: [StoreError]) -> ExitCode {
        errors.contains { $0.exitCode == .ioError } ? .ioError : .dataError
    }
}
