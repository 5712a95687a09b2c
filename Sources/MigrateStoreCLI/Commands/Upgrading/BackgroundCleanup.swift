import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import JSONStore

/// After `migrate` reported, the old folders its folder exchanges replaced are removed by a
/// detached `migrate-store` process, so that the user does not wait for thousands of files to be
/// freed (issue 19). That process takes the store's lock like any writer (`MigrationCleanup`); a
/// crash of it leaves a dot-named folder that readers ignore and the next sweep removes.
///
/// Only the `migrate-store` executable itself spawns (on Linux, where `/proc/self/exe` names it):
/// in a test process, or where spawning fails, the folders are removed before `migrate` returns,
/// as before.
enum BackgroundCleanup {
    /// The hidden first argument that makes `migrate-store` remove a migration's leftovers of the
    /// store given as the second argument, and nothing else.
    static let argument = "--remove-migration-leftovers"

    /// The environment variable that turns the background removal off (see ``executable``).
    static let inlineVariable = "MIGRATE_STORE_CLEANUP_INLINE"

    /// How long the background process waits for the store's lock: the migrating process holds
    /// it until just before it exits.
    static let lockTimeout: Duration = .seconds(60)

    /// The executable to spawn: this process's, when it is `migrate-store`; nil otherwise.
    static var executable: String? {
        // The test seam: `MIGRATE_STORE_CLEANUP_INLINE=1` removes the folders before `migrate`
        // returns, as before issue 19 (fault-injection tests, whose injected faults a detached
        // child would inherit, check the store right after each run).
        if ProcessInfo.processInfo.environment[inlineVariable] == "1" { return nil }
        #if os(Linux)
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        let path = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return path.hasSuffix("/migrate-store") ? path : nil
        #else
        return nil
        #endif
    }

    /// Starts the detached removal of `store`'s leftovers (a new session, standard streams on
    /// `/dev/null`, not waited for); where it cannot, removes them now.
    static func start(store: String) {
        guard MigrationCleanup.hasLeftovers(at: store) else { return }
        if let executable, spawnDetached(executable, [executable, argument, store]) { return }
        try? MigrationCleanup.removeLeftovers(at: store, tool: ToolInfo.name, version: ToolInfo.version)
    }

    /// The background process's work: exit status 0 when the leftovers are gone or were left for
    /// the next sweep (another writer held the lock), 1 when the store could not be cleaned.
    static func run(store: String) -> Int32 {
        do {
            try MigrationCleanup.removeLeftovers(at: store, tool: ToolInfo.name, version: ToolInfo.version, timeout: lockTimeout)
            return 0
        } catch {
            return 1
        }
    }

    /// `posix_spawn` in a new session (`POSIX_SPAWN_SETSID`), its standard streams on `/dev/null`.
    private static func spawnDetached(_ path: String, _ arguments: [String]) -> Bool {
        #if os(Linux)
        var attributes = posix_spawnattr_t()
        var actions = posix_spawn_file_actions_t()
        guard posix_spawnattr_init(&attributes) == 0 else { return false }
        defer { posix_spawnattr_destroy(&attributes) }
        guard posix_spawn_file_actions_init(&actions) == 0 else { return false }
        defer { posix_spawn_file_actions_destroy(&actions) }
        // POSIX_SPAWN_SETSID (glibc 2.26+, <spawn.h> under _GNU_SOURCE, which Swift's Glibc module does not define).
        let setSessionID: Int16 = 0x80
        guard posix_spawnattr_setflags(&attributes, setSessionID) == 0 else { return false }
        for descriptor: Int32 in 0...2 {
            guard posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0) == 0 else { return false }
        }
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid = pid_t()
        return posix_spawn(&pid, path, &actions, &attributes, &argv, environ) == 0
        #else
        return false
        #endif
    }
}
