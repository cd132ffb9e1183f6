import CheckoutModel
import Foundation
import Hummingbird
import NIOCore
import ProviderWire
import Synchronization

/// Turns the journal's captures into entries: what the writer does for a database, and a read
/// for the memory store. Knows the providers and which routes each registered.
final class JournalEntryMaker: Sendable {
    let providers: [any SandboxProvider]
    /// "METHOD /pattern" → the provider that registered the route.
    private let routeOwners = Mutex<[String: String]>([:])
    let redactor = Redactor()
    /// This process, as entries name it.
    let instance = SandboxIDs.make("", length: 8)

    init(providers: [any SandboxProvider]) {
        self.providers = providers
    }

    func serve(routeOwners owners: [String: String]) {
        routeOwners.withLock { $0 = owners }
    }

    private func routeOwner(_ route: String) -> String? {
        routeOwners.withLock { $0[route] }
    }

    /// The access log's fields, without redacting the bodies.
    func line(_ capture: JournalCapture) -> SandboxAccessLog.Line {
        SandboxAccessLog.Line(
            time: capture.time, method: capture.method, path: redactor.pathAndQuery(capture.target), status: capture.status,
            milliseconds: Self.milliseconds(capture.duration), provider: provider(of: capture, path: Self.path(capture)),
            run: capture.requestHeaders.sandboxRun)
    }

    /// The request's path as sent, without its query.
    private static func path(_ capture: JournalCapture) -> String {
        guard let offset = ByteScan.firstOffset(of: UInt8(ascii: "?"), in: capture.target) else { return capture.target }
        // The `?` is one byte of ASCII, so the prefix always ends on a character's boundary.
        return String(capture.target.utf8.prefix(offset)) ?? capture.target
    }

    static func milliseconds(_ duration: Duration) -> Double {
        let milliseconds = Double(duration.components.seconds) * 1_000 + Double(duration.components.attoseconds) / 1e15
        return (milliseconds * 1_000).rounded() / 1_000
    }

    /// The entry a capture becomes: redacted as the HTTP pane redacts (credential headers, secret
    /// fields, secret query values), bodies cut at `SandboxJournalEntry.maxBodyBytes`, its provider
    /// and the ids it names worked out. Its id is the store's to give.
    func entry(_ capture: JournalCapture, line given: SandboxAccessLog.Line? = nil) -> SandboxJournalEntry {
        let line = given ?? line(capture)
        var references = JournalReferences()
        references.add(pathParameters: Self.path(capture), pattern: capture.endpoint)
        let request = message(capture.requestHeaders, [capture.requestBody].compactMap { $0 }, bytes: capture.requestBodyBytes, references: &references)
        let response = message(capture.responseHeaders, capture.responseBody, bytes: capture.responseBodyBytes, references: &references)
        return SandboxJournalEntry(
            id: 0, time: line.time, instance: instance, method: line.method, path: line.path, status: line.status,
            durationMilliseconds: line.milliseconds, provider: line.provider, run: line.run, references: references.values,
            fault: capture.fault, request: request, response: response)
    }

    /// The provider whose route served it: the one that claimed it, else the one that registered
    /// the route the router matched, else (a path no route answers, answered in a provider's shape)
    /// the one owning the path.
    private func provider(of capture: JournalCapture, path: String) -> String? {
        if let claimant = capture.claimant { return claimant }
        if let endpoint = capture.endpoint, let owner = routeOwner("\(capture.method) \(endpoint)") { return owner }
        return providers.owner(of: path)?.id
    }

    private func message(_ headers: HTTPFields, _ body: [ByteBuffer], bytes: Int, references: inout JournalReferences) -> SandboxJournalEntry.Message {
        let fields = headers.map { SandboxJournalEntry.Header(name: $0.name.rawName, value: redactor.headerValue(name: $0.name.rawName, value: $0.value)) }
        guard !body.isEmpty else { return SandboxJournalEntry.Message(headers: fields, body: nil, bodyBytes: bytes, truncated: false) }
        var data = Data()
        data.reserveCapacity(body.reduce(0) { $0 + $1.readableBytes })
        for part in body { data.append(contentsOf: part.readableBytesView) }
        let truncated = bytes > data.count
        if truncated { data = JournalRedaction.wholeCharacters(data) }
        references.add(json: data)
        return SandboxJournalEntry.Message(headers: fields, body: JournalRedaction.body(data, redactor: redactor), bodyBytes: bytes, truncated: truncated)
    }
}

/// Redacting journal bodies as the HTTP pane does, without parsing those that cannot hold a
/// secret field, and without letting one through a body cut short (which does not parse).
enum JournalRedaction {
    static func body(_ data: Data, redactor: Redactor) -> String? {
        guard !data.isEmpty else { return nil }
        guard Redactor.mayHoldSecretField(data) else {
            guard let text = String(data: data, encoding: .utf8) else { return "<\(data.count) bytes, not UTF-8>" }
            return redactor.text(text)
        }
        if (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) != nil { return redactor.body(data) }
        // Not JSON (cut short, or a form): secret fields are found by their names in the text.
        guard let text = String(data: data, encoding: .utf8) else { return "<\(data.count) bytes, not UTF-8>" }
        return redactor.text(fields(in: text))
    }

    private static let names = Redactor.secretFieldNames.sorted { $0.count > $1.count }.joined(separator: "|")
    /// `"name": "value"` (the value perhaps cut short) and `name=value`.
    private static let patterns: [(NSRegularExpression, String)] = [
        (try! NSRegularExpression(pattern: #"("(?:\#(names))"\s*:\s*)"(?:[^"\\]|\\.)*"?"#, options: [.caseInsensitive]), "$1\"\(Redactor.marker)\""),
        (try! NSRegularExpression(pattern: #"((?:^|[&?\s])(?:\#(names))=)[^&\s]*"#, options: [.caseInsensitive]), "$1\(Redactor.marker)"),
    ]

    static func fields(in text: String) -> String {
        var result = text
        for (pattern, template) in patterns {
            let range = NSRange(result.startIndex..., in: result)
            result = pattern.stringByReplacingMatches(in: result, range: range, withTemplate: template)
        }
        return result
    }

    /// `data` without a UTF-8 character cut at its end.
    static func wholeCharacters(_ data: Data) -> Data {
        var end = data.count
        var back = 0
        while end > 0, back < 4, data[data.startIndex + end - 1] & 0xC0 == 0x80 {
            end -= 1
            back += 1
        }
        guard end > 0 else { return data }
        let lead = data[data.startIndex + end - 1]
        let length = lead & 0x80 == 0 ? 1 : lead & 0xE0 == 0xC0 ? 2 : lead & 0xF0 == 0xE0 ? 3 : lead & 0xF8 == 0xF0 ? 4 : 1
        return length == back + 1 ? data : data.prefix(end - 1)
    }
}

/// The provider ids a request names, for `?reference=`: the values its route pattern captures
/// ("/v2/payments/{id}"), and the string values of id-like keys in its JSON bodies (`id`,
/// `reference`, and keys ending `_id`, `Id`, `_reference`, `Reference`), found by a scan of the
/// bytes rather than a parse. Keys naming a client or a key are passed over.
struct JournalReferences {
    static let limit = 32
    static let longest = 128
    private(set) var values: [String] = []

    mutating func add(_ value: String) {
        guard values.count < Self.limit, !value.isEmpty, value.count <= Self.longest, !values.contains(value) else { return }
        values.append(value)
    }

    mutating func add(pathParameters path: String, pattern: String?) {
        // Characters, not substrings: Foundation's substring search was a tenth of the journal's time.
        guard let pattern, pattern.contains(where: { $0 == "{" || $0 == ":" || $0 == "*" }) else { return }
        let patternParts = pattern.split(separator: "/")
        let pathParts = path.split(separator: "/")
        for (index, part) in patternParts.enumerated() where index < pathParts.count {
            let capture = part.contains("{" as Character) || part.first == ":" || part == "*"
            guard capture else { continue }
            let part = pathParts[index]
            add(part.contains("%" as Character) ? part.removingPercentEncoding ?? String(part) : String(part))
        }
    }

    static func isReferenceKey(_ key: String) -> Bool {
        guard key == "id" || key == "reference" || key.hasSuffix("_id") || key.hasSuffix("Id") || key.hasSuffix("_reference")
            || key.hasSuffix("Reference")
        else { return false }
        let lower = key.lowercased()
        return !lower.contains("client") && !lower.contains("key") && !lower.contains("secret")
    }

    /// Scans JSON text for `"key": "value"` pairs with id-like keys.
    mutating func add(json data: Data) {
        guard let first = data.first(where: { $0 > 0x20 }), first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else { return }
        data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var index = 0
            var lastString: Range<Int>?
            var lastWasKey = false
            var pendingKey: String?
            while index < bytes.count, values.count < Self.limit {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    let start = index + 1
                    var end = start
                    var escaped = false
                    while end < bytes.count, bytes[end] != UInt8(ascii: "\"") {
                        if bytes[end] == UInt8(ascii: "\\") {
                            escaped = true
                            end += 1
                        }
                        end += 1
                    }
                    guard end < bytes.count else { return }
                    if let key = pendingKey, lastWasKey {
                        if !escaped, Self.isReferenceKey(key) {
                            add(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self))
                        }
                        pendingKey = nil
                        lastWasKey = false
                        lastString = nil
                    } else {
                        lastString = escaped ? nil : start..<end
                    }
                    index = end + 1
                    continue
                }
                if byte == UInt8(ascii: ":") {
                    pendingKey = lastString.map { String(decoding: UnsafeBufferPointer(rebasing: bytes[$0]), as: UTF8.self) }
                    lastWasKey = pendingKey != nil
                    lastString = nil
                } else if byte > 0x20 {
                    // Anything but a string after the colon: that key's value is not a string.
                    if lastWasKey { pendingKey = nil }
                    lastWasKey = false
                    lastString = nil
                }
                index += 1
            }
        }
    }
}
