import Foundation
import StoreJSON

/// The name under which a replaced store is kept: `<name>.replaced-<yyyyMMdd'T'HHmmss'Z'>` in UTC,
/// next to it; `-2`, `-3`, ... is appended when that name is taken. Never deleted by this tool.
package enum AsideName {
    package static func make(for target: SiblingPath, at date: Date, system: SystemCalls) throws(StoreError) -> String {
        let base = "\(target.name).replaced-\(stamp(date))"
        var candidate = base
        var number = 1
        while try system.linkStatus(target.sibling(candidate), context: ErrorContext("restore into", target.path)) != nil {
            number += 1
            candidate = "\(base)-\(number)"
        }
        return candidate
    }

    /// `yyyyMMdd'T'HHmmss'Z'` in UTC: 2025-11-20T09:00:00.000Z → 20251120T090000Z.
    package static func stamp(_ date: Date) -> String {
        String(RFC3339.format(date).prefix(19).filter { $0 != "-" && $0 != ":" }) + "Z"
    }
}
