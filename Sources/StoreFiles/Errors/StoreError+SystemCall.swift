#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the code was doing when a system call failed, so the error can name the user's file
/// (not the temp file) and say what state it is in.
///
/// `verb` and `path` make "Can't write '/s/x.json'"; `note` is appended after the remedy:
/// "the previous version of the file is unchanged". The context also records where the
/// operation was started, which becomes the error's `file` and `line`.
package struct ErrorContext: Sendable {
    var verb: String
    var path: String
    var note: String?
    var file: String
    var line: Int

    package init(_ verb: String, _ path: String, note: String? = nil, file: String = #fileID, line: Int = #line) {
        self.verb = verb
        self.path = path
        self.note = note
        self.file = file
        self.line = line
    }

    /// The same operation with a different note (the state changes as a write progresses).
    package func noting(_ note: String?, file: String = #fileID, line: Int = #line) -> ErrorContext {
        ErrorContext(verb, path, note: note, file: file, line: line)
    }
}

extension StoreError {
    /// Builds the error for a failed system call: maps `errno` to a code, a reason and a remedy.
    ///
    /// "Can't write '/s/x.json': the disk is full (ENOSPC). Free some space and try again;
    /// the previous version of the file is unchanged."
    package static func systemCall(_ syscall: String, errno: Int32, context: ErrorContext) -> StoreError {
        let meaning = ErrnoDescription.meaning(of: errno)
        var text = "Can't \(context.verb) '\(context.path)': \(meaning.reason) (\(ErrnoDescription.name(errno)))."
        let tail = [meaning.remedy, context.note].compactMap { $0 }.joined(separator: "; ")
        if !tail.isEmpty { text += " " + tail.prefix(1).uppercased() + tail.dropFirst() + "." }
        let recovery = meaning.remedy.map { StoreError.Recovery.advice($0.prefix(1).uppercased() + $0.dropFirst() + ".") }
        return StoreError(
            meaning.code, text, path: context.path, syscall: syscall, errno: errno, recovery: recovery,
            file: context.file, line: context.line)
    }
}

/// Names and plain-language meanings of the `errno` values the store runs into.
package enum ErrnoDescription {
    /// How an errno reads to a user: the code, why, and what to do (nil when there is nothing to suggest).
    package struct Meaning {
        var code: StoreError.Code
        var reason: String
        var remedy: String?
    }

    static func meaning(of errno: Int32) -> Meaning {
        switch errno {
        case ENOSPC: return Meaning(code: .noSpace, reason: "the disk is full", remedy: "free some space and try again")
        case EDQUOT:
            return Meaning(code: .noSpace, reason: "the disk quota is used up", remedy: "free some space or raise the quota, and try again")
        case EACCES, EPERM:
            return Meaning(
                code: .permissionDenied, reason: "permission was denied",
                remedy: "check the owner and permissions of the file and of its folder")
        case EROFS:
            return Meaning(
                code: .readOnlyFileSystem, reason: "the file system is read-only",
                remedy: "open the store read-only, or move it to a writable disk")
        case ENOENT: return Meaning(code: .notFound, reason: "it or a folder on its path does not exist", remedy: "check the path")
        case ENOTDIR: return Meaning(code: .notFound, reason: "a part of its path is not a folder", remedy: "check the path")
        case ELOOP:
            return Meaning(
                code: .symlinkRefused, reason: "it is a symbolic link, which the store never follows",
                remedy: "replace the link with the file or folder it points to")
        case EISDIR: return Meaning(code: .notARegularFile, reason: "it is a folder", remedy: "move the folder away")
        case EEXIST: return Meaning(code: .alreadyExists, reason: "it already exists", remedy: nil)
        case EIO: return Meaning(code: .io, reason: "the disk reported an input/output error", remedy: "check the disk, then try again")
        case EMFILE, ENFILE: return Meaning(code: .io, reason: "too many files are open", remedy: "close other programs and try again")
        case ENOLCK:
            return Meaning(
                code: .io, reason: "the file system cannot lock files",
                remedy: "move the store to a local disk")
        case EWOULDBLOCK: return Meaning(code: .locked, reason: "another process holds its lock", remedy: "try again later")
        default: return Meaning(code: .io, reason: systemMessage(errno), remedy: nil)
        }
    }

    /// The symbolic name of an errno (`"ENOSPC"`), or `"errno 123"` for one not in the table.
    package static func name(_ errno: Int32) -> String {
        let names: [(Int32, String)] = [
            (EPERM, "EPERM"), (ENOENT, "ENOENT"), (EINTR, "EINTR"), (EIO, "EIO"), (EBADF, "EBADF"),
            (EWOULDBLOCK, "EWOULDBLOCK"), (ENOMEM, "ENOMEM"), (EACCES, "EACCES"), (EBUSY, "EBUSY"),
            (EEXIST, "EEXIST"), (EXDEV, "EXDEV"), (ENOTDIR, "ENOTDIR"), (EISDIR, "EISDIR"),
            (EINVAL, "EINVAL"), (ENFILE, "ENFILE"), (EMFILE, "EMFILE"), (EFBIG, "EFBIG"),
            (ENOSPC, "ENOSPC"), (EROFS, "EROFS"), (EMLINK, "EMLINK"), (ENAMETOOLONG, "ENAMETOOLONG"),
            (ENOLCK, "ENOLCK"), (ENOTEMPTY, "ENOTEMPTY"), (ELOOP, "ELOOP"), (EDQUOT, "EDQUOT"),
            (ESTALE, "ESTALE"), (ENOTSUP, "ENOTSUP"), (EOVERFLOW, "EOVERFLOW"),
        ]
        return names.first { $0.0 == errno }?.1 ?? "errno \(errno)"
    }

    /// `strerror(3)` with a lowercase first letter, to sit inside a sentence.
    private static func systemMessage(_ errno: Int32) -> String {
        guard let cString = strerror(errno) else { return "the system reported error \(errno)" }
        let text = String(cString: cString)
        return text.prefix(1).lowercased() + text.dropFirst()
    }
}
