import Foundation
import ProviderWire

/// A journal entry as a database keeps it, written by hand: byte for byte what
/// `StoredRecordCoding.encoder()` writes (sorted keys, slashes escaped, dates as seconds since
/// 2001), which `JournalEntryStoredJSONTests` holds it to. Every request on a database-backed
/// sandbox is written once, and Foundation's encoder was a fifth of an instance's time under
/// load (`make bench`'s P6). Nil for a duration that is not a finite number, which the encoder
/// writes as a string: the caller then falls back to it.
enum JournalEntryStoredJSON {
    static func text(_ entry: SandboxJournalEntry) -> String? {
        guard entry.durationMilliseconds.isFinite, entry.time.timeIntervalSinceReferenceDate.isFinite else { return nil }
        var out = StoredJSONBytes()
        out.open()
        out.key("duration_ms")
        out.number(entry.durationMilliseconds)
        if let fault = entry.fault {
            out.key("fault")
            out.string(fault)
        }
        out.key("id")
        out.number(entry.id)
        out.key("instance")
        out.string(entry.instance)
        out.key("method")
        out.string(entry.method)
        out.key("path")
        out.string(entry.path)
        if let provider = entry.provider {
            out.key("provider")
            out.string(provider)
        }
        out.key("references")
        out.array(entry.references) { $0.string($1) }
        out.key("request")
        out.message(entry.request)
        out.key("response")
        out.message(entry.response)
        if let run = entry.run {
            out.key("run")
            out.string(run)
        }
        out.key("status")
        out.number(entry.status)
        out.key("time")
        out.number(entry.time.timeIntervalSinceReferenceDate)
        out.close()
        return String(decoding: out.bytes, as: UTF8.self)
    }
}

/// A JSON text being written as `JSONEncoder` writes it with `.sortedKeys` (the callers give the
/// members in that order: byte order of their keys).
private struct StoredJSONBytes {
    var bytes: [UInt8] = []
    private var needsComma = false

    init() { bytes.reserveCapacity(2048) }

    mutating func open() {
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
    }

    mutating func close() {
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    mutating func key(_ name: StaticString) {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    mutating func number(_ value: Int) {
        bytes.append(contentsOf: String(value).utf8)
        needsComma = true
    }

    /// As the encoder writes a finite `Double`: its shortest form, without a trailing ".0".
    mutating func number(_ value: Double) {
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        bytes.append(contentsOf: text.utf8)
        needsComma = true
    }

    mutating func bool(_ value: Bool) {
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
        needsComma = true
    }

    /// Quotes, backslashes, slashes and control characters escaped; everything else as it is.
    mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var start = 0
            for index in utf8.indices {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "/") else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
                start = index + 1
                escape(byte)
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
        }
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    private mutating func escape(_ byte: UInt8) {
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): bytes.append(byte)
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        default:
            let hex = Array("0123456789abcdef".utf8)
            bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]])
        }
    }

    mutating func array<Element>(_ elements: [Element], _ write: (inout StoredJSONBytes, Element) -> Void) {
        bytes.append(UInt8(ascii: "["))
        for (index, element) in elements.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            write(&self, element)
        }
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    mutating func message(_ message: SandboxJournalEntry.Message) {
        open()
        if let body = message.body {
            key("body")
            string(body)
        }
        key("body_bytes")
        number(message.bodyBytes)
        key("headers")
        array(message.headers) { out, header in
            out.open()
            out.key("name")
            out.string(header.name)
            out.key("value")
            out.string(header.value)
            out.close()
        }
        key("truncated")
        bool(message.truncated)
        close()
    }
}
