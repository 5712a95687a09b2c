import Foundation
import StoreJSON

/// Reads typed fields out of one JSON object, with the key path in every error,
/// and hands back the keys it was not asked about (the unknown keys to preserve).
///
///     var reader = try ObjectReader(value, path: "messages", index: 2, keys: MessageV1.readerKeys)
///     let id = try reader.uuid("id")
///     let status = try reader.string("status", default: "confirmed")
///     let unknown = reader.unknownKeys()
///
/// With `keys`, the members are sorted into the table's slots once, when the reader is made,
/// and asking for a name of the table hashes nothing; a key outside the table is looked up in
/// the object. Either way the values, the errors and the unknown keys are the same.
///
/// Non-copyable so that it can own its slots as a raw allocation, freed in `deinit`: as an
/// array, making and freeing the slots costs about 1,500 instructions per object.
struct ObjectReader: ~Copyable {
    private let object: JSONObject
    /// The object's key path or, when `index` is set, the path of the array holding it;
    /// the full path is only formatted for an error.
    private let basePath: String
    private let index: Int?
    private let keys: ObjectKeys
    /// Room for `keys.names.count` values (nil for an empty table). Slot `i` is initialized,
    /// holding the value of the member whose key is `keys.names[i]`, exactly when bit `i` of
    /// `filledSlots` is set and that of `takenSlots` is not: the first `take` moves it out.
    private let slots: UnsafeMutablePointer<JSONValue>?
    /// One bit per slot whose name was asked for.
    private var takenSlots: UInt64 = 0
    /// One bit per slot that a member filled.
    private let filledSlots: UInt64
    /// One bit per member (by position in the object's iteration order, for the first 64)
    /// whose key is no name of the table: the unknown keys, unless some are asked for.
    private let membersWithoutSlot: UInt64
    /// The slot after the last one asked for: decoders ask in the table's order.
    private var nextSlot = 0
    /// Keys asked for that are not in `keys` (rare: none for a decoder whose table is complete).
    private var takenOthers: [String] = []
    /// How many of the keys asked for were present.
    private var present = 0

    /// A reader of `value`, which must be an object. `path` is its key path (`""` for a
    /// document) or, with `index`, the path of the array holding it (`messages` and `2` for
    /// `messages[2]`).
    init(_ value: JSONValue, path: String, index: Int? = nil, keys: ObjectKeys = .none) throws(SchemaError) {
        guard case .object(let object) = value else {
            let fullPath = ObjectReader.format(path, index)
            throw SchemaError(
                code: fullPath.isEmpty ? .notAnObject : .wrongType, keyPath: fullPath.isEmpty ? nil : fullPath,
                expected: "an object", found: value.typeName)
        }
        self.object = object
        self.basePath = path
        self.index = index
        self.keys = keys
        let count = keys.names.count
        guard count > 0 else { slots = nil; filledSlots = 0; membersWithoutSlot = 0; return }
        let slots = UnsafeMutablePointer<JSONValue>.allocate(capacity: count)
        var filled: UInt64 = 0, withoutSlot: UInt64 = 0
        for (position, (key, member)) in object.enumerated() {
            if let slot = keys.slot(of: key) {
                // A dictionary has no two equal keys, so no two members share a slot.
                (slots + slot).initialize(to: member)
                filled |= 1 << UInt64(slot)
            } else if position < 64 {
                withoutSlot |= 1 << UInt64(position)
            }
        }
        self.slots = slots
        filledSlots = filled
        membersWithoutSlot = withoutSlot
    }

    deinit {
        guard let slots else { return }
        var live = filledSlots & ~takenSlots
        while live != 0 {
            (slots + live.trailingZeroBitCount).deinitialize(count: 1)
            live &= live - 1
        }
        slots.deallocate()
    }

    private static func format(_ path: String, _ index: Int?) -> String {
        guard let index else { return path }
        return "\(path)[\(index)]"
    }

    /// The key path of the object: `messages[2]`.
    var path: String { ObjectReader.format(basePath, index) }

    /// The key path of a member, for errors: `messages[2].timestamp`.
    func keyPath(_ key: String) -> String {
        let path = self.path
        return path.isEmpty ? key : "\(path).\(key)"
    }

    /// Marks `key` as known and returns its value; nil when absent. An explicit null is returned as `.null`.
    mutating func take(_ key: String) -> JSONValue? {
        let value: JSONValue?
        if let slot = keys.slot(ofAsked: key, guess: nextSlot), let slots {
            nextSlot = slot + 1
            let bit: UInt64 = 1 << UInt64(slot)
            // The first time, the value moves out of its slot; asked again, it is looked up.
            if takenSlots & bit != 0 {
                value = object[key]
            } else {
                value = filledSlots & bit != 0 ? (slots + slot).move() : nil
            }
            takenSlots |= bit
        } else {
            takenOthers.append(key)
            value = object[key]
        }
        if value != nil { present += 1 }
        return value
    }

    mutating func required(_ key: String) throws(SchemaError) -> JSONValue {
        guard let value = take(key) else {
            throw SchemaError(code: .missingKey, keyPath: keyPath(key), detail: "required key is missing")
        }
        return value
    }

    func wrongType(_ key: String, _ expected: String, _ found: JSONValue) -> SchemaError {
        SchemaError(code: .wrongType, keyPath: keyPath(key), expected: expected, found: found.typeName + describe(found))
    }

    func invalid(_ key: String, _ expected: String, _ found: JSONValue) -> SchemaError {
        SchemaError(code: .invalidValue, keyPath: keyPath(key), expected: expected, found: found.briefDescription)
    }

    private func describe(_ value: JSONValue) -> String {
        switch value {
        case .number, .string, .bool: " (\(value.briefDescription))"
        default: ""
        }
    }

    /// Every member that no `take` asked for, with its value unchanged.
    func unknownKeys() -> JSONObject {
        guard object.count > present else { return [:] }  // every member was a known key
        if slots != nil, object.count <= 64, filledSlots & ~takenSlots == 0, takenOthers.isEmpty {
            // Every member with a slot was asked for, and no other key: the unknown members are
            // those without a slot, found in `init` (same dictionary, same iteration order).
            var unknown = JSONObject(minimumCapacity: membersWithoutSlot.nonzeroBitCount)
            for (position, member) in object.enumerated() where membersWithoutSlot & 1 << UInt64(position) != 0 {
                unknown[member.key] = member.value
            }
            return unknown
        }
        let keys = self.keys, takenSlots = self.takenSlots, takenOthers = self.takenOthers
        return object.filter { member in
            if let slot = keys.slot(of: member.key) { return takenSlots & 1 << UInt64(slot) == 0 }
            return !takenOthers.contains(member.key)
        }
    }
}

// MARK: - Typed fields

// The checks are written out in each accessor, not in a shared non-mutating helper: calling
// one from a mutating method copies the whole reader on every call.

extension ObjectReader {
    mutating func string(_ key: String) throws(SchemaError) -> String {
        let found = try required(key)
        guard case .string(let s) = found else { throw wrongType(key, "a string", found) }
        return s
    }

    mutating func string(_ key: String, default value: String) throws(SchemaError) -> String {
        guard let found = take(key) else { return value }
        guard case .string(let s) = found else { throw wrongType(key, "a string", found) }
        return s
    }

    mutating func optionalString(_ key: String) throws(SchemaError) -> String? {
        guard let found = take(key) else { return nil }
        if case .null = found { return nil }
        guard case .string(let s) = found else { throw wrongType(key, "a string", found) }
        return s
    }

    mutating func bool(_ key: String, default value: Bool) throws(SchemaError) -> Bool {
        guard let found = take(key) else { return value }
        guard case .bool(let b) = found else { throw wrongType(key, "a boolean", found) }
        return b
    }

    /// An integer literal within `range` (no fraction, no exponent: `3.0` is not an integer here).
    mutating func int(_ key: String, in range: ClosedRange<Int64>, default value: Int64? = nil) throws(SchemaError) -> Int64 {
        let found: JSONValue
        if let value { guard let v = take(key) else { return value }; found = v } else { found = try required(key) }
        guard case .number(let n) = found, n.isIntegerLiteral else { throw wrongType(key, "an integer", found) }
        guard let i = n.int64Value, range.contains(i) else {
            throw invalid(key, "an integer from \(range.lowerBound) to \(range.upperBound)", found)
        }
        return i
    }

    mutating func int32(_ key: String, nonNegative: Bool, default value: Int32) throws(SchemaError) -> Int32 {
        let range: ClosedRange<Int64> = (nonNegative ? 0 : Int64(Int32.min))...Int64(Int32.max)
        return Int32(try int(key, in: range, default: Int64(value)))
    }

    mutating func double(_ key: String, default value: Double) throws(SchemaError) -> Double {
        guard let found = take(key) else { return value }
        guard case .number(let n) = found else { throw wrongType(key, "a number", found) }
        guard let d = n.doubleValue else { throw invalid(key, "a finite number", found) }
        return d
    }

    mutating func date(_ key: String) throws(SchemaError) -> Date {
        let found = try required(key)
        guard case .string(let s) = found else { throw wrongType(key, "an RFC 3339 date string", found) }
        guard let date = RFC3339.canonicalDate(s) ?? RFC3339.parse(s) else { throw invalid(key, "an RFC 3339 date like '2025-10-17T14:30:00.000Z'", found) }
        return date
    }

    mutating func optionalDate(_ key: String) throws(SchemaError) -> Date? {
        guard let found = take(key) else { return nil }
        if case .null = found { return nil }
        guard case .string(let s) = found else { throw wrongType(key, "an RFC 3339 date string", found) }
        guard let date = RFC3339.canonicalDate(s) ?? RFC3339.parse(s) else { throw invalid(key, "an RFC 3339 date like '2025-10-17T14:30:00.000Z'", found) }
        return date
    }

    mutating func uuid(_ key: String) throws(SchemaError) -> UUID {
        let found = try required(key)
        guard case .string(let s) = found else { throw wrongType(key, "a UUID string", found) }
        guard let id = UUIDText.parse(s) else { throw invalid(key, "a UUID like '4f1c2a9e-…'", found) }
        return id
    }

    mutating func array(_ key: String) throws(SchemaError) -> [JSONValue]? {
        guard let found = take(key) else { return nil }
        guard case .array(let items) = found else { throw wrongType(key, "an array", found) }
        return items
    }
}

// MARK: - Writing

/// Builds a JSON object for encoding: starts from the unknown keys, then sets the known ones.
struct ObjectWriter {
    private(set) var object: JSONObject

    init(unknown: JSONObject) { object = unknown }

    mutating func set(_ key: String, _ value: String) { object[key] = .string(value) }
    mutating func set(_ key: String, _ value: String?) { object[key] = value.map { .string($0) } ?? .null }
    mutating func set(_ key: String, _ value: Bool) { object[key] = .bool(value) }
    mutating func set<I: BinaryInteger>(_ key: String, _ value: I) { object[key] = .number(JSONNumber(value)) }
    mutating func set(_ key: String, _ value: Double) { object[key] = .number(JSONNumber(value)) }
    mutating func set(_ key: String, _ value: Date) { object[key] = .string(RFC3339.format(value)) }
    mutating func set(_ key: String, _ value: Date?) { object[key] = value.map { .string(RFC3339.format($0)) } ?? .null }
    mutating func set(_ key: String, _ value: UUID) { object[key] = .string(value.lowercased) }
    mutating func set(_ key: String, _ value: JSONValue) { object[key] = value }

    var value: JSONValue { .object(object) }
}

extension UUID {
    /// The store's spelling of a UUID: lowercase, 8-4-4-4-12.
    package var lowercased: String { UUIDText.lowercase(self) }
}
