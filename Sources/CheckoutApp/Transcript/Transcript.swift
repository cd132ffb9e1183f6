import CBuildInfo
import CheckoutModel
import Foundation
import ProviderClients
import ProviderWire

/// Writes and reads HAR transcripts of a checkout.
public enum Transcript {
    static let pageID = "checkout"

    /// The HAR document for a finished (or abandoned) checkout.
    static func document(record: TranscriptRecord, exchanges: [HTTPExchange], title: String) -> HAR.Document {
        HAR.Document(log: HAR.Log(
            creator: HAR.Creator(name: "TerminalCheckout", version: CheckoutVersion.current),
            pages: [HAR.Page(startedDateTime: record.startedDateTime, id: pageID, title: title)],
            entries: exchanges.map { HAR.Entry($0, pageref: pageID) },
            comment: "Recorded by TerminalCheckout; secrets are replaced by [REDACTED].",
            terminalCheckout: record))
    }

    /// Writes the document atomically, so a failed write never leaves half a file.
    static func write(_ document: HAR.Document, to path: String) throws(TranscriptError) {
        let encoder = WireJSON.encoder()
        encoder.outputFormatting.insert(.prettyPrinted)
        do {
            let data = try encoder.encode(document)
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw TranscriptError(path: path, problem: "could not be written (\(error.localizedDescription)); check the directory exists and is writable")
        }
    }

    /// Checks before a checkout starts that the transcript can be written where asked.
    public static func checkWritable(_ path: String) throws(TranscriptError) {
        guard !path.isEmpty else { throw TranscriptError(path: path, problem: "is an empty path; give a file name such as checkout.har") }
        let url = URL(fileURLWithPath: path)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw TranscriptError(path: path, problem: "is a directory; give a file name such as checkout.har")
        }
        var status = stat()
        if stat(path, &status) == 0, status.st_mode & S_IFMT != S_IFREG {
            throw TranscriptError(path: path, problem: "is not a regular file (a device, pipe or socket); give a file name such as checkout.har")
        }
        let directory = url.deletingLastPathComponent().path
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw TranscriptError(path: path, problem: "cannot be written: the directory \(directory) does not exist")
        }
        guard FileManager.default.isWritableFile(atPath: directory) else {
            throw TranscriptError(path: path, problem: "cannot be written: the directory \(directory) is not writable")
        }
    }

    /// The most a transcript may be: thousands of exchanges fit in far less.
    static let maximumBytes = 200_000_000

    /// Reads a transcript written by `--record`.
    public static func load(_ path: String) throws(TranscriptError) -> HAR.Document {
        let data: Data
        do { data = try InputFile.contents(of: path, kind: "the .har file written by --record", limit: maximumBytes) } catch {
            throw TranscriptError(path: path, problem: error.text)
        }
        return try read(data, path: path)
    }

    /// Reads a transcript's bytes; `path` names it in errors.
    public static func read(_ data: Data, path: String) throws(TranscriptError) -> HAR.Document {
        let document: HAR.Document
        guard let json = try? JSONSerialization.jsonObject(with: data) else {
            throw TranscriptError(path: path, problem: "is not a HAR file (it is not JSON); give the .har file written by --record")
        }
        do { document = try WireJSON.decoder().decode(HAR.Document.self, from: data) } catch let error as DecodingError {
            if case .dataCorrupted = error, error.fieldPath == "(file)",
                let (field, value) = JSONNumberRange.firstOutOfRange(in: json, wholeFields: ["exit_status", "format"])
            {
                throw TranscriptError(path: path, problem: "has \(field) \(value), a number out of range for that field; record the checkout again")
            }
            throw TranscriptError(
                path: path,
                problem: "is not a HAR 1.2 file: \(error.fieldPath == "(file)" ? "" : error.fieldPath + ": ")\(error.problem); give the .har file written by --record")
        } catch {
            throw TranscriptError(path: path, problem: "is not a HAR file: \(error.localizedDescription); give the .har file written by --record")
        }
        guard let record = document.log.terminalCheckout else {
            throw TranscriptError(path: path, problem: "has no _terminalCheckout record; only transcripts written by `checkout --record` can be replayed")
        }
        if let status = record.exitStatus, ExitStatus(rawValue: status) == nil {
            throw TranscriptError(path: path, problem: "has _terminalCheckout.exit_status \(status); a checkout exits 0, 1, 2 or 64")
        }
        guard record.format == TranscriptRecord.currentFormat else {
            throw TranscriptError(
                path: path,
                problem: "is transcript format \(record.format), and this checkout replays format \(TranscriptRecord.currentFormat); "
                    + "its HTTP exchanges still open in a browser's developer tools, but record the checkout again to replay it")
        }
        return document
    }
}

/// A transcript that cannot be written or read.
public struct TranscriptError: Error, Hashable, Sendable, CustomStringConvertible {
    public let path: String
    public let problem: String
    public var description: String { "transcript \(path.isEmpty ? "\"\"" : path) \(problem)" }
}

/// The version transcripts name as their creator, and the commit it was built from.
public enum CheckoutVersion {
    public static let current = "0.4.0"
    /// The git commit (`-dirty` when built from changed files); "unknown" when built outside `make`.
    public static var commit: String { String(cString: checkout_build_commit()) }
    /// What `checkout --version` prints.
    public static var described: String { "\(current) (commit \(commit))" }
}

extension Transcript {
    /// The scenario a transcript recorded, read as a scenario file would be.
    public static func scenario(
        of document: HAR.Document, path: String, catalog: Catalog, registry: ProviderRegistry = .builtIn
    ) throws(ScenarioError) -> Scenario {
        let text = document.log.terminalCheckout?.scenario.text ?? "null"
        return try ScenarioParser.parse(text, file: "\(path) (_terminalCheckout.scenario)", catalog: catalog, registry: registry)
    }
}
