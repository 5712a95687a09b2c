@_exported import struct StoreJSON.JSONNumber
@_exported import typealias StoreJSON.JSONObject
@_exported import struct StoreJSON.JSONSyntaxError
// The JSON value types that appear in the public document API (`unknown: JSONObject`, `json`,
// `SchemaError.syntax`), re-exported one by one so that `import Schema` (or `JSONStore`) is
// enough to name them. The rest of StoreJSON (parser, writers, dates, UUID text) is `package`:
// other targets of this package `import StoreJSON` for it; an app does not see it.
@_exported import enum StoreJSON.JSONValue
