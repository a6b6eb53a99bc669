import Foundation
import GRDB
import StillpointCore

/// A SQL function, `_stillpoint_convert_N(value, _id)`, that converts one stored value with an attribute's
/// ``AttributeConversion`` while a table is copied: the values never pass through a column of the wrong type.
///
/// A failed conversion stops the statement; the reason, naming the row, is left in `failure` for the migrator's
/// error.
struct ConversionFunction {
    var number: Int
    var attribute: String
    var conversion: AttributeConversion

    var name: String { "_stillpoint_convert_\(number)" }

    func function(reportingTo failure: LockedState<String?>) -> DatabaseFunction {
        let attribute = attribute
        let conversion = conversion
        return DatabaseFunction(name, argumentCount: 2, pure: true) { arguments in
            let value = Self.value(arguments[0], as: conversion.sourceType)
            do {
                return Self.databaseValue(try conversion.convert(value))
            } catch {
                let id = Int64.fromDatabaseValue(arguments[1]) ?? 0
                let reason = AttributeConversion.failureReason(attribute: attribute, id: id, error: error)
                failure.withLock { $0 = $0 ?? reason }
                throw DatabaseError(message: reason)
            }
        }
    }

    /// A stored value as an attribute of `type`; a value of another storage class, or of no declared type (`nil`),
    /// is passed as it is stored.
    static func value(_ stored: DatabaseValue, as type: AttributeType?) -> AttributeValue {
        switch stored.storage {
        case .null: return .null
        case .int64(let number):
            switch type {
            case .bool: return .bool(number != 0)
            case .double: return .double(Double(number))
            case .date: return .date(Date(timeIntervalSince1970: Double(number)))
            default: return .integer(number)
            }
        case .double(let number):
            return type == .date ? .date(Date(timeIntervalSince1970: number)) : .double(number)
        case .string(let text):
            return type == .uuid ? UUID(uuidString: text).map(AttributeValue.uuid) ?? .string(text) : .string(text)
        case .blob(let data):
            return .binary(data)
        }
    }

    /// A value in the store's storage convention (as ``AttributeValue/bind(to:at:)`` binds it).
    static func databaseValue(_ value: AttributeValue) -> DatabaseValue {
        switch value {
        case .null: return .null
        case .integer(let number): return number.databaseValue
        case .double(let number): return number.databaseValue
        case .bool(let flag): return (flag ? 1 : 0 as Int64).databaseValue
        case .date(let date): return date.timeIntervalSince1970.databaseValue
        case .string(let text): return text.databaseValue
        case .uuid(let uuid): return uuid.uuidString.databaseValue
        case .binary(let data): return data.databaseValue
        }
    }
}
