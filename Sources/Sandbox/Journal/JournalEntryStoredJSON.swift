import Foundation
import ProviderWire

/// A journal entry as a database keeps it, written by hand: byte for byte what
/// `StoredRecordCoding.encoder()` writes (sorted keys, slashes escaped, dates as seconds since
/// 2001), which `JournalEntryStoredJSONTests` holds it to. Every request on a database-backed
/// sandbox is written once, and Foundation's encoder was a fifth of an instance's time under
/// load (`make bench`'s P6). Nil for a duration or time that is not a finite number, which the
/// encoder writes as a string: the caller then falls back to it.
enum JournalEntryStoredJSON {
    static func text(_ entry: SandboxJournalEntry) -> String? {
        var out = JSONBytes(.stored)
        guard out.entry(entry) else { return nil }
        return String(decoding: out.bytes, as: UTF8.self)
    }
}

/// The entry's members in the encoder's order (the keys' byte order). Under `.stored` a string
/// is never declined, only a number that is not finite.
extension JSONBytes {
    fileprivate mutating func entry(_ entry: SandboxJournalEntry) -> Bool {
        open()
        key("duration_ms")
        guard number(entry.durationMilliseconds), member("fault", entry.fault) else { return false }
        key("id")
        number(entry.id)
        guard member("instance", entry.instance), member("method", entry.method), member("path", entry.path),
            member("provider", entry.provider)
        else { return false }
        key("references")
        guard array(entry.references, { $0.string($1) }) else { return false }
        key("request")
        guard message(entry.request) else { return false }
        key("response")
        guard message(entry.response), member("run", entry.run) else { return false }
        key("status")
        number(entry.status)
        key("time")
        guard date(entry.time) else { return false }
        close()
        return true
    }

    private mutating func message(_ message: SandboxJournalEntry.Message) -> Bool {
        open()
        guard member("body", message.body) else { return false }
        key("body_bytes")
        number(message.bodyBytes)
        key("headers")
        let headers = array(message.headers) { out, header in
            out.open()
            guard out.member("name", header.name), out.member("value", header.value) else { return false }
            out.close()
            return true
        }
        guard headers else { return false }
        key("truncated")
        bool(message.truncated)
        close()
        return true
    }

    /// `"key":"text"`, or nothing when there is no text (as the encoder leaves out a nil).
    private mutating func member(_ name: StaticString, _ text: String?) -> Bool {
        guard let text else { return true }
        key(name)
        return string(text)
    }
}
