import Foundation
import JSONStore
import Schema

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `store-bench`: the Swift side of the measurements in `Benchmarks/` (not a product).
///
///     store-bench update <store> --id <uuid> --count K [--dump FILE] [--async]
///         Opens the (v2) store for writing, then makes K durable updates of one work stream
///         through `Store.updateWorkStream` (unread_count cycles 0…9, so each update changes
///         bytes but not the size); reports each operation's wall and CPU time. With --dump, writes the document's final bytes to FILE (the
///         bytes the C floor writes). With --async, the updates go through `AsyncStore`, awaited one at a time.
///     store-bench update-threads <store> --ids <uuid>,<uuid>,... --count K
///         Opens the store for writing once, then starts one thread per id (threads of one app
///         sharing one `Store`); each makes K durable updates of its own work stream at once.
///         Reports the wall time of all T × K updates and the time per update (wall / (T × K)).
///     store-bench open <store> --count K
///         Opens the store for writing K times (`Store.open`, each releasing its lock), and reports
///         each open's wall time. The first open of a store this library has not recorded (see
///         `WriteRecord`) checks it in full; the later ones find the record and do not.
///     store-bench codec <store>
///         Reads every work stream file, then times parse, decode (WorkStreamV1/V2), encode, and
///         Foundation's JSONSerialization on the same bytes, in memory.
///     store-bench sha256 <file> [--passes N]
///         Hashes the file's bytes N times in memory with the package's SHA256 (SHA256Bench.swift).
///
/// Prints one JSON object on standard output; times are in seconds.
func fail(_ message: String) -> Never {
    FileHandle.standardError.write(
        Data(
            "Error: \(message)\nUsage: store-bench update <store> --id <uuid> --count K [--dump FILE] [--async] | update-threads <store> --ids <uuid>,... --count K | open <store> --count K | codec <store> | sha256 <file> [--passes N]\n"
                .utf8))
    exit(64)
}

func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

/// CPU time of this process (user + system), in seconds: separates computing from waiting for the disk.
func cpuTime() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}
func seconds(_ start: UInt64, _ end: UInt64) -> Double { Double(end - start) / 1e9 }

func option(_ name: String, in args: [String]) -> String? {
    guard let index = args.firstIndex(of: "--" + name), index + 1 < args.count else { return nil }
    return args[index + 1]
}

func json(_ fields: [(String, String)]) -> String {
    "{" + fields.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}"
}

func update(_ args: [String]) async throws {
    guard args.count >= 2, let idText = option("id", in: args), let id = UUID(uuidString: idText),
        let count = option("count", in: args).flatMap(Int.init), count > 0
    else { fail("update needs <store> --id <uuid> --count K") }
    let t0 = now()
    let store = try Store.open(at: args[1], options: Store.Options(tool: "store-bench"))
    let t1 = now()
    var perOp: [Double] = [], cpuPerOp: [Double] = []
    var last: WorkStreamV3?
    let change: @Sendable (inout WorkStreamV3) -> Void = { session in session.fields.unreadCount = (session.fields.unreadCount + 1) % 10 }
    if args.contains("--async") {
        // The same updates through AsyncStore, awaited one at a time (its queue, its lock wait).
        let asyncStore = AsyncStore(store)
        for _ in 0..<count {
            let start = now(), cpuStart = cpuTime()
            last = try await asyncStore.updateWorkStream(id, change)
            perOp.append(seconds(start, now()))
            cpuPerOp.append(cpuTime() - cpuStart)
        }
    } else {
        for _ in 0..<count {
            let start = now(), cpuStart = cpuTime()
            last = try store.updateWorkStream(id, change)
            perOp.append(seconds(start, now()))
            cpuPerOp.append(cpuTime() - cpuStart)
        }
    }
    if let dump = option("dump", in: args), let last {
        try Data(last.encoded).write(to: URL(fileURLWithPath: dump))
    }
    print(
        json([
            ("open_s", "\(seconds(t0, t1))"), ("ops", "\(count)"), ("bytes", "\(last?.encoded.count ?? 0)"),
            ("per_op_s", "[" + perOp.map { "\($0)" }.joined(separator: ", ") + "]"),
            ("cpu_per_op_s", "[" + cpuPerOp.map { "\($0)" }.joined(separator: ", ") + "]"),
        ]))
}

func updateThreads(_ args: [String]) throws {
    guard args.count >= 2, let idList = option("ids", in: args), let count = option("count", in: args).flatMap(Int.init), count > 0 else {
        fail("update-threads needs <store> --ids <uuid>,<uuid>,... --count K")
    }
    let ids = idList.split(separator: ",").compactMap { UUID(uuidString: String($0)) }
    guard !ids.isEmpty, ids.count == idList.split(separator: ",").count else { fail("update-threads: --ids must be UUIDs separated by commas") }
    let store = try Store.open(at: args[1], options: Store.Options(tool: "store-bench"))
    let ready = DispatchGroup(), go = DispatchSemaphore(value: 0), done = DispatchGroup()
    let failures = Failures()
    for id in ids {
        ready.enter()
        done.enter()
        let thread = Thread {
            ready.leave()
            go.wait()
            do {
                for _ in 0..<count { try store.updateWorkStream(id) { $0.fields.unreadCount = ($0.fields.unreadCount + 1) % 10 } }
            } catch {
                failures.add("\(error)")
            }
            done.leave()
        }
        thread.start()
    }
    ready.wait()
    let start = now()
    for _ in ids { go.signal() }
    done.wait()
    let wall = seconds(start, now())
    if let first = failures.first { fail("update-threads: \(first)") }
    let ops = ids.count * count
    print(json([("threads", "\(ids.count)"), ("ops", "\(ops)"), ("wall_s", "\(wall)"), ("per_op_s", "[\(wall / Double(ops))]")]))
}

/// The first error of any thread.
final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var messages: [String] = []
    func add(_ message: String) { lock.lock(); messages.append(message); lock.unlock() }
    var first: String? { lock.lock(); defer { lock.unlock() }; return messages.first }
}

func openTimes(_ args: [String]) throws {
    guard args.count >= 2, let count = option("count", in: args).flatMap(Int.init), count > 0 else { fail("open needs <store> --count K") }
    var perOpen: [Double] = []
    for _ in 0..<count {
        let start = now()
        _ = try Store.open(at: args[1], options: Store.Options(tool: "store-bench"))
        perOpen.append(seconds(start, now()))
    }
    print(json([("opens", "\(count)"), ("per_open_s", "[" + perOpen.map { "\($0)" }.joined(separator: ", ") + "]")]))
}

func codec(_ args: [String]) throws {
    guard args.count >= 2 else { fail("codec needs <store>") }
    // The work streams of the store's version: sessions/ up to v3, work-streams/ from v4 (spec §11).
    let version = try Store.classify(args[1]).storeSchemaVersion
    let folder = URL(fileURLWithPath: args[1]).appendingPathComponent(StoreLayout.workStreamsFolder(schemaVersion: version))
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.sorted()
    let files = try names.map { Array(try Data(contentsOf: folder.appendingPathComponent($0))) }
    let total = files.reduce(0) { $0 + $1.count }

    var start = now()
    let parsed = try files.map { try DocumentVersion.parse($0) }
    let parse = seconds(start, now())
    start = now()
    let decoded = try parsed.map { try WorkStreamDocument(json: $0, renamedFolder: version >= StoreLayout.renamedFolderVersion) }
    let decode = seconds(start, now())
    start = now()
    var written = 0
    for document in decoded { written += document.encoded.count }
    let encode = seconds(start, now())
    start = now()
    for file in files { _ = try JSONSerialization.jsonObject(with: Data(file)) }
    let foundation = seconds(start, now())
    print(
        json([
            ("files", "\(files.count)"), ("bytes", "\(total)"), ("encoded_bytes", "\(written)"),
            ("parse_s", "\(parse)"), ("decode_s", "\(decode)"), ("encode_s", "\(encode)"),
            ("foundation_jsonserialization_s", "\(foundation)"),
        ]))
}

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    switch arguments.first {
    case "update": try await update(arguments)
    case "update-threads": try updateThreads(arguments)
    case "open": try openTimes(arguments)
    case "codec": try codec(arguments)
    case "sha256": try sha256(arguments)
    default: fail("unknown command '\(arguments.first ?? "")'")
    }
} catch {
    FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
    exit(1)
}
