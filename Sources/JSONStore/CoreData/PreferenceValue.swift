import Foundation
import StoreJSON

/// One value of the app's preferences as a property list holds it (a `UserDefaults` value), in a
/// `Sendable` form: taken once from the file, the data or the dictionary, then mapped by pure code
/// (`AppPreferences`).
///
/// Foundation hands numbers over as `NSNumber` on every platform, and on Apple platforms an
/// `NSNumber` that holds an integer also casts to `Bool` (`as? Bool`), so the kind is read from
/// the number's own type code instead: `c` or `B` for a boolean (`<true/>`, `<false/>`, Swift's
/// `Bool`), `f` or `d` for a real, anything else an integer.
enum PreferenceValue: Sendable, Equatable {
    case bool(Bool)
    case integer(Int64)
    case real(Double)
    case string(String)
    case date(Date)
    case data([UInt8])
    case array([PreferenceValue])
    case dictionary([String: PreferenceValue])
    /// A value of no property-list type (only a dictionary handed over in code can hold one): its type's name.
    case other(String)

    /// The value of `any`, as `PropertyListSerialization` or `UserDefaults` returns it.
    init(_ any: Any) {
        if let text = any as? String {
            self = .string(text)
        } else if let number = any as? NSNumber {
            self = PreferenceValue(number: number)
        } else if let date = any as? Date {
            self = .date(date)
        } else if let data = any as? Data {
            self = .data(Array(data))
        } else if let members = any as? [String: Any] {
            self = .dictionary(members.mapValues { PreferenceValue($0) })
        } else if let items = any as? [Any] {
            self = .array(items.map { PreferenceValue($0) })
        } else {
            self = .other(String(describing: type(of: any)))
        }
    }

    private init(number: NSNumber) {
        switch String(cString: number.objCType) {
        case "c", "B": self = .bool(number.boolValue)
        case "f", "d": self = .real(number.doubleValue)
        case "Q":
            // An unsigned 64-bit value beyond Int64 has no integer the store can hold.
            self = number.uint64Value <= UInt64(Int64.max) ? .integer(Int64(number.uint64Value)) : .real(number.doubleValue)
        default: self = .integer(number.int64Value)
        }
    }

    /// The value as a finding shows it: `the text 'yes'`, `the integer 3`, `a list of 2 values`.
    var shown: String {
        switch self {
        case .bool(let flag): return "the boolean \(flag)"
        case .integer(let number): return "the integer \(number)"
        case .real(let number): return "the number \(number)"
        case .string(let text): return "the text '\(text.count > 40 ? String(text.prefix(40)) + "…" : text)'"
        case .date(let date): return "the date \(RFC3339.format(date))"
        case .data(let bytes): return "data of \(bytes.count) bytes"
        case .array(let items): return "a list of \(items.count) value\(items.count == 1 ? "" : "s")"
        case .dictionary(let members): return "a dictionary of \(members.count) key\(members.count == 1 ? "" : "s")"
        case .other(let type): return "a value of type \(type)"
        }
    }
}
