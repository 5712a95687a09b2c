@_exported import Schema
