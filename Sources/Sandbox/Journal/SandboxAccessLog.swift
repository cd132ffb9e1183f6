import Foundation
import Logging
import ProviderWire
import Synchronization

/// The access log of `checkout sandbox`: one line per request served (but reads of the journal),
/// through swift-log, as text or JSON. The sandbox a screen embeds has none (`accessLog` nil).
public enum SandboxAccessLog {
    public enum Format: String, CaseIterable, Sendable {
        case text, json, none
    }

    /// One request's line: `time`, `method`, `path`, `status`, `duration_ms`, `provider` and
    /// `run` (`-` when there is none; `id` and `instance` are not known yet).
    struct Line: Sendable {
        let time: Date
        let method: String
        let path: String
        let status: Int
        let milliseconds: Double
        let provider: String?
        let run: String?
    }

    /// A batch of lines. Our text handler prints each line alone: the fields are built only for
    /// another handler, and its sink takes the batch's lines at once, without log events around them.
    static func log(_ entries: [Line], to logger: Logger) {
        if let handler = logger.handler as? Handler, handler.format == .text {
            if logger.logLevel <= .info { handler.sink.add(entries.map(text)) }
            return
        }
        for entry in entries { log(entry, to: logger) }
    }

    private static func log(_ entry: Line, to logger: Logger) {
        let time = ISO8601Milliseconds.string(from: entry.time)
        let provider = entry.provider ?? "-"
        let run = entry.run ?? "-"
        let line = text(entry, time: time, provider: provider, run: run)
        logger.info(
            "\(line)",
            metadata: [
                "time": .string(time), "method": .string(entry.method), "path": .string(entry.path),
                "status": .stringConvertible(entry.status), "duration_ms": .stringConvertible(entry.milliseconds),
                "provider": .string(provider), "run": .string(run),
            ])
    }

    /// `time method path status 1.3ms provider run=run`, written as bytes: string interpolation
    /// was most of the access log's cost per request.
    static func text(_ entry: Line) -> String {
        text(entry, time: ISO8601Milliseconds.string(from: entry.time), provider: entry.provider ?? "-", run: entry.run ?? "-")
    }

    static func text(_ entry: Line, time: String, provider: String, run: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(time.utf8.count + entry.method.utf8.count + entry.path.utf8.count + provider.utf8.count + run.utf8.count + 32)
        func word(_ text: String) {
            bytes.append(contentsOf: text.utf8)
            bytes.append(UInt8(ascii: " "))
        }
        func digits(_ value: Int) {
            if value >= 10 { digits(value / 10) }
            bytes.append(UInt8(ascii: "0") + UInt8(value % 10))
        }
        word(time)
        word(entry.method)
        word(entry.path)
        digits(max(0, entry.status))
        bytes.append(UInt8(ascii: " "))
        let tenths = tenthsOf(entry.milliseconds)
        digits(tenths / 10)
        bytes.append(UInt8(ascii: "."))
        digits(tenths % 10)
        bytes.append(contentsOf: "ms ".utf8)
        word(provider)
        bytes.append(contentsOf: "run=".utf8)
        bytes.append(contentsOf: run.utf8)
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func tenthsOf(_ milliseconds: Double) -> Int {
        let tenths = (max(0, milliseconds) * 10).rounded()
        return tenths < 1e15 ? Int(tenths) : Int(1e15)
    }

    /// Milliseconds to one decimal ("1.3"), without a format string.
    public static func tenths(_ milliseconds: Double) -> String {
        let tenths = tenthsOf(milliseconds)
        return "\(tenths / 10).\(tenths % 10)"
    }

    /// A logger in `format` (nil for `.none`) handing its lines to `write`: one line at a time, or
    /// (as the journal logs them, a batch at once) several joined by newlines, without the last
    /// newline, so a busy sandbox makes one write per batch rather than one per request.
    public static func logger(_ format: Format, write: @escaping @Sendable (String) -> Void) -> Logger? {
        guard format != .none else { return nil }
        let sink = Sink(write: write)
        return Logger(label: "checkout.sandbox.access") { _ in Handler(format: format, sink: sink) }
    }

    /// Writes what the logger gathered since the last flush (after each batch of the journal's).
    static func flush(_ logger: Logger) {
        (logger.handler as? Handler)?.sink.flush()
    }

    /// Lines gathered until flushed; a handler not flushed by the journal (another logger's use)
    /// still writes every line, at the latest when the next batch is flushed.
    final class Sink: Sendable {
        private let lines = Mutex<[String]>([])
        private let write: @Sendable (String) -> Void

        init(write: @escaping @Sendable (String) -> Void) { self.write = write }

        func add(_ line: String) { lines.withLock { $0.append(line) } }

        func add(_ more: [String]) { lines.withLock { $0.append(contentsOf: more) } }

        func flush() {
            let gathered = lines.withLock { lines in
                defer { lines.removeAll(keepingCapacity: true) }
                return lines
            }
            if !gathered.isEmpty { write(gathered.joined(separator: "\n")) }
        }
    }

    /// Text: the message alone. JSON: one object of the metadata, numbers as numbers.
    struct Handler: LogHandler {
        let format: Format
        let sink: Sink
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .info

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            switch format {
            case .text, .none:
                sink.add(event.message.description)
            case .json:
                var object: [String: Any] = [:]
                for (key, value) in metadata.merging(event.metadata ?? [:], uniquingKeysWith: { $1 }) {
                    switch value {
                    case .stringConvertible(let number as Int): object[key] = number
                    case .stringConvertible(let number as Double): object[key] = number
                    case .string(let text) where text == "-" && (key == "provider" || key == "run"): object[key] = NSNull()
                    default: object[key] = value.description
                    }
                }
                guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) else { return }
                sink.add(String(decoding: data, as: UTF8.self))
            }
        }
    }
}
