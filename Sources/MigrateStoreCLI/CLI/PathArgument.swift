import JSONStore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What a path on the command line must name, checked before a command runs.
///
/// The rule, for every command: **a path that does not exist, or is not the kind of thing the
/// command needs there, is a usage error (exit status 64)**. The words are well formed but name
/// the wrong thing (`migrate .` in a source folder, a typo in a path), nothing was read as data
/// and nothing was changed, and the fix is to the command line, which is what `EX_USAGE` means
/// in `sysexits.h`. The other statuses keep their meaning: 65 when a store, backup or export is
/// what it says but its content is bad or too new, 69 when a backup or export fails its
/// verification, 73 when an output already exists, 74 when the operating system fails on a path
/// that is there (a permission, a disk error).
///
/// | role | 64 when the path |
/// |---|---|
/// | `store` | does not exist, is not a folder, or has no `store.json` (but 75 when a restore into it is unfinished: `.<store>.restore-journal` is next to it) |
/// | `replacedStore` | as `store`, but an unfinished restore passes: the command (`rollback`) finishes it |
/// | `backup` | does not exist, is not a folder, or has neither `backup.json` nor `SHA256SUMS` (a folder with one of them is a damaged backup: 69) |
/// | `exportFile` | does not exist or is a folder (`-` is standard input) |
/// | `inputFile` | does not exist or is a folder (the app's Core Data file, its preferences) |
/// | `target` | exists and is neither a folder nor a symbolic link (the library refuses a link itself) |
///
/// A check that can't decide (`stat` fails with anything but `ENOENT` or `ENOTDIR`) lets the
/// command run, so the library reports the real cause.
enum PathRole: Sendable, Equatable {
    /// A store the command reads or changes (`<store>`, `--against`).
    case store
    /// A store a restore replaces (`rollback <store>`): as `store`, except that an unfinished
    /// restore into it passes, because the command finishes that restore first.
    case replacedStore
    /// A backup made by `backup` or `migrate` (`<backup>`, `--from-backup`).
    case backup
    /// A file written by `export`, or `-` (`import <file>`).
    case exportFile
    /// A file the command only reads (`import-coredata <VoiceCode.sqlite>`, `--preferences`); `noun` says what it should be.
    case inputFile(noun: String)
    /// A folder the command creates or replaces (`restore <store>`, `import <store>`); `verb` names the command.
    case target(verb: String)
}

enum PathArgument {
    /// Checks every path argument and option of `spec` that has a role.
    ///
    /// - Throws: `CommandError` with exit status 64 (``ExitCode/usage``).
    static func check(_ spec: CommandSpec, _ arguments: ParsedArguments) throws {
        for argument in spec.arguments {
            if let role = argument.role { try check(arguments.value(argument), role) }
        }
        for option in spec.options {
            if let role = option.role, let value = arguments.string(option) { try check(value, role) }
        }
    }

    static func check(_ path: String, _ role: PathRole) throws {
        if case .exportFile = role, path == "-" { return }
        guard let type = fileType(path, followingLinks: true) else { return }
        switch role {
        case .store, .replacedStore, .backup:
            let isStore = role != .backup
            let noun = isStore ? "store" : "backup"
            // An unfinished restore is not a wrong path: say so, with the library's 75 (see `InterruptedRestore`).
            if isStore, let interrupted = Restore.interruptedError(store: path) {
                if role == .replacedStore { return }
                throw interrupted
            }
            guard type != .missing else { throw refusal("'\(path)' does not exist, so it is not a \(noun). Check the path.") }
            guard type == .directory else { throw refusal("'\(path)' is not a folder, so it is not a \(noun). Check the path.") }
            if isStore, fileType(path + "/" + StoreLayout.manifest, followingLinks: false) == .missing {
                throw refusal("'\(path)' is not a work-stream store: it has no \(StoreLayout.manifest). Check the path, or create a store first.")
            }
            if role == .backup, fileType(path + "/" + BackupManifest.fileName, followingLinks: false) == .missing,
                fileType(path + "/" + checksumFile, followingLinks: false) == .missing
            {
                throw refusal(
                    "'\(path)' is not a backup: it has neither \(BackupManifest.fileName) nor \(checksumFile). "
                        + "Check the path; '\(ToolInfo.name) backup' and 'migrate' make backups.")
            }
        case .exportFile:
            guard type != .missing else { throw refusal("'\(path)' does not exist. Check the path.") }
            guard type != .directory else { throw refusal("'\(path)' is a folder, not a file written by 'export'. Check the path.") }
        case .inputFile(let noun):
            guard type != .missing else { throw refusal("'\(path)' does not exist. Check the path of \(noun).") }
            guard type != .directory else { throw refusal("'\(path)' is a folder, not \(noun). Check the path.") }
        case .target(let verb):
            guard type == .missing || type == .directory || fileType(path, followingLinks: false) == .symbolicLink else {
                throw refusal("Can't \(verb) into '\(path)': it is not a folder. Move it away or choose another path.")
            }
        }
    }

    /// The checksum file of a backup (`ChecksumFile.fileName` in JSONStore, which is internal there).
    static let checksumFile = "SHA256SUMS"

    private static func refusal(_ message: String) -> CommandError { CommandError(.usage, message) }

    private enum FileType { case missing, directory, symbolicLink, other }

    /// What is at `path`, or nil when `stat(2)` fails for another reason than "nothing there".
    private static func fileType(_ path: String, followingLinks: Bool) -> FileType? {
        var status = stat()
        let result = followingLinks ? stat(path, &status) : lstat(path, &status)
        guard result == 0 else { return errno == ENOENT || errno == ENOTDIR ? .missing : nil }
        switch status.st_mode & S_IFMT {
        case S_IFDIR: return .directory
        case S_IFLNK: return .symbolicLink
        default: return .other
        }
    }
}
