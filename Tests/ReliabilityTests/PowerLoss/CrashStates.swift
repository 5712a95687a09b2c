import Foundation
import StoreGenerator

/// The states a disk may hold after a power loss at one instant, from a `ModelState`.
///
/// What survives: everything durable, plus any subset of each folder's pending entry operations
/// (applied in their order; each operation is atomic), and for each reachable file whose content
/// was not fsynced: the old durable content, the new content, or the new content torn at a 4 KiB
/// boundary (the first k blocks new, the rest old).
///
/// Small cases are enumerated exhaustively; when a snapshot has more combinations than `limit`,
/// `limit` combinations are drawn with a seeded generator (the extremes, all-old and all-new,
/// always included).
struct CrashStates {
    static let blockSize = 4096

    /// How one snapshot was explored.
    struct Exploration {
        var states: [ModelState] = []
        /// True when every combination was tried.
        var exhaustive = true
    }

    /// Every distinct crash state of `snapshot` (distinct by the files and folders they hold).
    static func explore(_ snapshot: ModelState, limit: Int, random: inout SeededGenerator) -> Exploration {
        var exploration = Exploration()
        var seen = Set<Int>()
        let directories = snapshot.inodes.keys.sorted().filter { !snapshot.inodes[$0]!.pending.isEmpty }
        let entryCombinations = directories.reduce(1.0) { $0 * pow(2, Double(snapshot.inodes[$1]!.pending.count)) }
        let entryMasks: [[UInt64]]
        if entryCombinations <= Double(limit) {
            entryMasks = allMasks(directories.map { snapshot.inodes[$0]!.pending.count })
        } else {
            exploration.exhaustive = false
            let counts = directories.map { snapshot.inodes[$0]!.pending.count }
            var masks = [counts.map { _ in UInt64(0) }, counts.map { mask(ofAll: $0) }]
            for _ in 0..<limit { masks.append(counts.map { random.next() & mask(ofAll: $0) }) }
            entryMasks = masks
        }
        let contentLimit = max(1, limit / max(1, entryMasks.count))
        for masks in entryMasks {
            var base = snapshot
            for (directory, entryMask) in zip(directories, masks) {
                var entries = base.inodes[directory]!.durableEntries
                for (index, operation) in base.inodes[directory]!.pending.enumerated() where entryMask & (1 << UInt64(index)) != 0 {
                    operation.apply(to: &entries)
                }
                base.inodes[directory]!.entries = entries
            }
            let files = reachableFilesWithPendingData(base)
            let choices = files.map { contentChoices(base.inodes[$0]!) }
            let contentCombinations = choices.reduce(1.0) { $0 * Double($1.count) }
            var picks: [[Int]]
            if contentCombinations <= Double(contentLimit) {
                picks = allIndices(choices.map(\.count))
            } else {
                exploration.exhaustive = false
                picks = [choices.map { _ in 0 }, choices.map { _ in 1 }]
                for _ in 0..<contentLimit { picks.append(choices.map { Int(random.next() % UInt64($0.count)) }) }
            }
            for pick in picks {
                var state = base
                for (file, (choice, index)) in zip(files, zip(choices, pick)) { state.inodes[file]!.data = choice[index] }
                state = settled(state)
                if seen.insert(fingerprint(state)).inserted { exploration.states.append(state) }
            }
        }
        return exploration
    }

    /// The contents a file may hold after the crash: old, new, and new torn at each block boundary.
    static func contentChoices(_ node: ModelInode) -> [[UInt8]] {
        var out = [node.durableData, node.data]
        var boundary = blockSize
        while boundary < node.data.count {
            var torn = Array(node.data[..<boundary])
            if node.durableData.count > boundary { torn += node.durableData[boundary...] }
            if !out.contains(torn) { out.append(torn) }
            boundary += blockSize
        }
        return out
    }

    /// A state in which what the crash kept is all there is: durable = volatile, unreachable
    /// inodes dropped.
    static func settled(_ state: ModelState) -> ModelState {
        var reachable: Set<Int> = [ModelState.rootInode]
        var stack = [ModelState.rootInode]
        while let inode = stack.popLast() {
            for child in state.inodes[inode]!.entries.values where state.inodes[child] != nil && reachable.insert(child).inserted {
                if state.inodes[child]!.isDirectory { stack.append(child) }
            }
        }
        var out = ModelState()
        out.nextInode = state.nextInode
        out.inodes = state.inodes.filter { reachable.contains($0.key) }
        return out.allDurable
    }

    static func reachableFilesWithPendingData(_ state: ModelState) -> [Int] {
        var out: [Int] = []
        var seen: Set<Int> = [ModelState.rootInode]
        var stack = [ModelState.rootInode]
        while let inode = stack.popLast() {
            for child in state.inodes[inode]!.entries.values.sorted() where seen.insert(child).inserted {
                guard let node = state.inodes[child] else { continue }
                if node.isDirectory { stack.append(child) } else if node.hasPendingData { out.append(child) }
            }
        }
        return out.sorted()
    }

    /// A hash of the folders and files a state holds (paths and bytes, not inode numbers).
    static func fingerprint(_ state: ModelState) -> Int {
        var hasher = Hasher()
        for (path, bytes) in state.files(includeDotNames: true).sorted(by: { $0.key < $1.key }) {
            hasher.combine(path)
            hasher.combine(bytes)
        }
        for directory in state.directories().sorted() { hasher.combine(directory) }
        return hasher.finalize()
    }

    private static func mask(ofAll count: Int) -> UInt64 { count >= 64 ? .max : (1 << UInt64(count)) - 1 }

    private static func allMasks(_ counts: [Int]) -> [[UInt64]] {
        counts.reduce([[]]) { partial, count in
            partial.flatMap { prefix in (0...mask(ofAll: count)).map { prefix + [$0] } }
        }
    }

    private static func allIndices(_ counts: [Int]) -> [[Int]] {
        counts.reduce([[]]) { partial, count in partial.flatMap { prefix in (0..<count).map { prefix + [$0] } } }
    }
}
