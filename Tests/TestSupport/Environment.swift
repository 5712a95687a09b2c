import Foundation

/// True when `RELIABILITY_FULL=1`: the larger counts of a full run (see RELIABILITY.md).
public let isFullRun = ProcessInfo.processInfo.environment["RELIABILITY_FULL"] == "1"

/// An integer from the environment, else `full` in a full run (`RELIABILITY_FULL=1`), else `fallback`.
public func environmentInteger(_ name: String, default fallback: Int, full: Int? = nil) -> Int {
    ProcessInfo.processInfo.environment[name].flatMap { Int($0) } ?? (isFullRun ? full ?? fallback : fallback)
}
