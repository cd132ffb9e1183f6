import Foundation
import Logging
import PaymentFlow
import ProviderWire
import SQLiteNIO

/// Square's offline payments on disk: one SQLite file (`defaultPath()`), one table, one row per
/// payment taken offline, kept whatever became of it.
///
/// Durable: every write is a transaction of its own in SQLite's rollback journal with
/// `synchronous = FULL`, committed (and synced) before the call returns, so a crash, a quit or a
/// SIGKILL right after `enqueue` loses nothing. Each call opens its own connection and closes it
/// before returning (SQLite's locks keep two processes, or two calls, from tripping over each
/// other), so there is nothing to shut down.
///
/// A file that is not this queue (garbage, another program's database, a newer schema) is
/// an error naming the path; the file is left as it is, since it may hold payments not yet uploaded.
public struct SquareOfflineDatabase: SquareOfflineStore, CustomStringConvertible {
    /// What this version writes in `PRAGMA user_version`.
    static let schemaVersion = 1
    static let table = "square_offline_payments"
    static let fileName = "square-offline.sqlite"

    public let path: String
    private let threadPool: NIOThreadPool
    private let eventLoopGroup: any EventLoopGroup

    /// The queue at `path` (created on first use, its folder 0700 and the file 0600); by default
    /// SQLiteNIO's shared thread pool and event loops.
    public init(
        path: String = SquareOfflineDatabase.defaultPath(), threadPool: NIOThreadPool = .singleton,
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) {
        self.path = path
        self.threadPool = threadPool
        self.eventLoopGroup = eventLoopGroup
    }

    public var description: String { "Square's offline payment queue (\(path))" }

    /// `$TERMINALCHECKOUT_DATA_DIR/square-offline.sqlite` when that is set, else under
    /// `$XDG_DATA_HOME/terminalcheckout/`, else under `~/.local/share/terminalcheckout/`.
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let folder: String
        if let data = environment.nonEmpty("TERMINALCHECKOUT_DATA_DIR") {
            folder = data
        } else if let xdg = environment.nonEmpty("XDG_DATA_HOME"), xdg.hasPrefix("/") {
            // The XDG spec ignores a relative XDG_DATA_HOME.
            folder = (xdg as NSString).appendingPathComponent("terminalcheckout")
        } else {
            let home = environment.nonEmpty("HOME") ?? NSHomeDirectory()
            folder = (home as NSString).appendingPathComponent(".local/share/terminalcheckout")
        }
        return (folder as NSString).appendingPathComponent(fileName)
    }

    // MARK: SquareOfflineStore

    public func enqueue(_ payment: SquareOfflinePayment) async throws {
        let json: String
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            json = String(decoding: try encoder.encode(payment.request), as: UTF8.self)
        } catch {
            throw failure(.failed, "could not encode \(payment.localID)'s request: \(error)")
        }
        var columns: [SQLiteData] = [
            .text(payment.localID), .integer(SQLiteInt64(payment.createdAtMilliseconds)), .text(json),
            Self.optional(payment.cardBrand), Self.optional(payment.last4), Self.optional(payment.entryMethod), .text(payment.state.name),
        ]
        switch payment.state {
        case .queued: columns += [.null, .null, .null, .null]
        case .uploaded(let paymentID, let status): columns += [.text(paymentID), .text(status), .null, .null]
        case .declined(let code, let detail): columns += [.null, .null, .text(code), .text(detail)]
        }
        let binds = columns
        let localID = payment.localID
        try await withConnection { connection in
            // One statement, so one transaction: the primary key refuses a local id already kept.
            _ = try await connection.query(
                """
                INSERT INTO \(Self.table) (local_id, created_at, request, card_brand, last4, entry_method, state,
                    payment_id, status, error_code, error_detail)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)
                """, binds)
        } mapping: { reason in
            reason == .constraintPrimaryKeyFailed || reason == .constraintUniqueFailed ? failure(.duplicate, "\(localID) is already queued") : nil
        }
    }

    public func all() async throws -> [SquareOfflinePayment] {
        let rows = try await withConnection { connection in
            try await connection.query(
                """
                SELECT local_id, created_at, request, card_brand, last4, entry_method, state, payment_id, status, error_code, error_detail
                FROM \(Self.table) ORDER BY created_at, rowid
                """)
        }
        return try rows.map(payment(from:))
    }

    public func markUploaded(localID: String, paymentID: String, status: String) async throws {
        try await update(
            localID: localID,
            "state = 'uploaded', payment_id = ?2, status = ?3, error_code = NULL, error_detail = NULL", [.text(paymentID), .text(status)])
    }

    public func markDeclined(localID: String, code: String, detail: String) async throws {
        try await update(
            localID: localID, "state = 'declined', payment_id = NULL, status = NULL, error_code = ?2, error_detail = ?3", [.text(code), .text(detail)])
    }

    // MARK: Errors

    /// Why the queue could not be used; always names the file.
    public struct Failure: Error, Hashable, Sendable, CustomStringConvertible {
        public enum Kind: String, Hashable, Sendable {
            /// Its folder could not be made, or the file could not be created or opened.
            case cannotOpen
            /// The file is not an SQLite database, or a damaged one.
            case notADatabase
            /// An SQLite database, but not this queue as this version writes it.
            case unexpectedContents
            /// A payment's row does not read back.
            case unreadableRow
            case duplicate
            case unknownPayment
            /// Anything else SQLite refused (a full disk, a lock held too long, …).
            case failed
        }

        public var kind: Kind
        public var path: String
        public var detail: String

        public init(kind: Kind, path: String, detail: String) {
            self.kind = kind
            self.path = path
            self.detail = detail
        }

        public var description: String {
            switch kind {
            case .notADatabase, .unexpectedContents:
                "Square's offline payment queue \(path) cannot be read: \(detail). It may hold payments not yet uploaded: "
                    + "keep it, and move it aside to start an empty queue."
            case .cannotOpen:
                "Square's offline payment queue \(path) cannot be opened: \(detail)"
            case .unreadableRow, .duplicate, .unknownPayment, .failed:
                "Square's offline payment queue \(path): \(detail)"
            }
        }
    }

    private func failure(_ kind: Failure.Kind, _ detail: String) -> Failure {
        Failure(kind: kind, path: path, detail: detail)
    }

    /// SQLite's own error, said for this file.
    private func failure(_ error: SQLiteError) -> Failure {
        let message = error.message
        switch error.reason {
        case .notADatabase, .corrupt, .corruptIndex, .corruptSequenceSchema, .corruptVirtualTable:
            return failure(.notADatabase, "it is not an SQLite database or is damaged (\(message))")
        case .cantOpen, .cantOpenDirectory, .cantOpenInvalidPath, .cantOpenUnfollowedSymlink, .cantOpenCygwinPath, .permission, .auth,
            .readOnly, .readonlyDirectory, .readonlyCantLock:
            return failure(.cannotOpen, message)
        case .error where message.hasPrefix("no such table") || message.hasPrefix("no such column") || message.contains("has no column"):
            return failure(.unexpectedContents, "its table is not the one this version writes (\(message))")
        case .busy, .busyTimeout, .busyInRecovery, .locked:
            return failure(.failed, "another process has held it locked for too long (\(message))")
        default:
            return failure(.failed, "\(error)")
        }
    }

    // MARK: Connections

    /// Opens the file (making it and its folder if missing), readies the table, runs `body`,
    /// and closes the connection before returning, whatever happened.
    /// `mapping` may say what an SQLite error of `body` means here (nil: the usual).
    private func withConnection<T: Sendable>(
        _ body: @escaping @Sendable (SQLiteConnection) async throws -> T, mapping: (SQLiteError.Reason) -> Failure? = { _ in nil }
    ) async throws -> T {
        try prepareFile()
        let connection: SQLiteConnection
        do {
            connection = try await SQLiteConnection.open(
                storage: .file(path: path), threadPool: threadPool, logger: Self.quiet, on: eventLoopGroup.any())
        } catch let error as SQLiteError {
            throw failure(.cannotOpen, error.message)
        } catch {
            throw failure(.cannotOpen, "\(error)")
        }
        let result: Result<T, any Error>
        do {
            try await ready(connection)
            result = .success(try await body(connection))
        } catch {
            result = .failure(error)
        }
        // SQLiteNIO insists on an explicit close (its deinit asserts one happened).
        try? await connection.close()
        switch result {
        case .success(let value): return value
        case .failure(let error as Failure): throw error
        case .failure(let error as SQLiteError): throw mapping(error.reason) ?? failure(error)
        case .failure(let error): throw failure(.failed, "\(error)")
        }
    }

    /// A no-op logger: the TUI owns the terminal.
    private static let quiet = Logger(label: "terminalcheckout.square-offline", factory: { _ in SwiftLogNoOpLogHandler() })

    /// Makes the folder (0700) and an empty file (0600, which SQLite reads as an empty database)
    /// when missing, so the payments on it are never readable by others, not even for a moment.
    private func prepareFile() throws {
        let files = FileManager.default
        var isDirectory: ObjCBool = false
        if files.fileExists(atPath: path, isDirectory: &isDirectory) {
            if isDirectory.boolValue { throw failure(.cannotOpen, "it is a directory") }
            return
        }
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty, !files.fileExists(atPath: folder) {
            do {
                try files.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw failure(.cannotOpen, "could not create its folder \(folder) (\(Self.reason(error)))")
            }
        }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if descriptor >= 0 {
            close(descriptor)
        } else if errno != EEXIST {
            throw failure(.cannotOpen, "could not create it (\(String(cString: strerror(errno))))")
        }
    }

    private static func reason(_ error: any Error) -> String {
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        if let code = underlying?.code, underlying?.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(code))) }
        return error.localizedDescription
    }

    /// Durability and locking for this connection, then the table if missing; refuses a newer schema.
    private func ready(_ connection: SQLiteConnection) async throws {
        // Waits out another writer's lock for up to 5 s instead of SQLiteNIO's endless retry.
        _ = try await connection.query("PRAGMA busy_timeout = 5000")
        // Reading the schema first: a file that is not a database fails here, before any write.
        let version = try await connection.query("PRAGMA user_version").first?.column("user_version")
        guard case .integer(let found)? = version else { throw failure(.unexpectedContents, "it has no schema version") }
        guard found <= Self.schemaVersion else {
            throw failure(.unexpectedContents, "a newer version of the tool wrote it (schema \(found), this one reads \(Self.schemaVersion))")
        }
        // The rollback journal, synced in full at every commit: a commit is on disk when it returns.
        let mode = try await connection.query("PRAGMA journal_mode").first?.columns.first?.data
        if case .text(let text)? = mode, text.lowercased() == "wal" {
            // Someone switched it to WAL: also durable at synchronous FULL, so it is kept.
        } else if case .text(let text)? = mode, text.lowercased() != "delete" {
            _ = try await connection.query("PRAGMA journal_mode = DELETE")
        }
        _ = try await connection.query("PRAGMA synchronous = FULL")
        guard found < Self.schemaVersion else { return }
        _ = try await connection.query(
            """
            CREATE TABLE IF NOT EXISTS \(Self.table) (
                local_id TEXT PRIMARY KEY NOT NULL,
                created_at INTEGER NOT NULL,
                request TEXT NOT NULL,
                card_brand TEXT,
                last4 TEXT,
                entry_method TEXT,
                state TEXT NOT NULL CHECK (state IN ('queued', 'uploaded', 'declined')),
                payment_id TEXT,
                status TEXT,
                error_code TEXT,
                error_detail TEXT
            )
            """)
        _ = try await connection.query("PRAGMA user_version = \(Self.schemaVersion)")
    }

    /// `PRAGMA journal_mode` and `synchronous` as a connection of this store sees them.
    func durabilitySettings() async throws -> (journalMode: String, synchronous: Int) {
        try await withConnection { connection in
            let mode = try await connection.query("PRAGMA journal_mode").first?.columns.first?.data.string ?? "?"
            let synchronous = try await connection.query("PRAGMA synchronous").first?.columns.first?.data
            guard case .integer(let level)? = synchronous else { return (mode, -1) }
            return (mode, Int(level))
        }
    }

    private func update(localID: String, _ assignments: String, _ values: [SQLiteData]) async throws {
        let binds: [SQLiteData] = [.text(localID)] + values
        let updated = try await withConnection { connection in
            try await connection.query("UPDATE \(Self.table) SET \(assignments) WHERE local_id = ?1 RETURNING local_id", binds)
        }
        guard !updated.isEmpty else { throw failure(.unknownPayment, "no payment \(localID) is queued") }
    }

    // MARK: Rows

    private static func optional(_ text: String?) -> SQLiteData { text.map { .text($0) } ?? .null }

    private func payment(from row: SQLiteRow) throws -> SquareOfflinePayment {
        func text(_ name: String) -> String? {
            guard case .text(let value)? = row.column(name) else { return nil }
            return value
        }
        guard let localID = text("local_id") else { throw failure(.unreadableRow, "a payment has no local id") }
        func unreadable(_ why: String) -> Failure { failure(.unreadableRow, "payment \(localID) does not read back: \(why)") }
        guard case .integer(let milliseconds)? = row.column("created_at") else { throw unreadable("created_at is not an integer") }
        guard let json = text("request") else { throw unreadable("it has no request") }
        let request: SquareCreatePaymentRequest
        do {
            request = try JSONDecoder().decode(SquareCreatePaymentRequest.self, from: Data(json.utf8))
        } catch {
            throw unreadable("its request is not a CreatePayment body (\(error))")
        }
        let state: SquareOfflinePayment.State
        switch text("state") {
        case "queued":
            state = .queued
        case "uploaded":
            guard let paymentID = text("payment_id"), let status = text("status") else { throw unreadable("uploaded, with no payment id or status") }
            state = .uploaded(paymentID: paymentID, status: status)
        case "declined":
            guard let code = text("error_code") else { throw unreadable("declined, with no error code") }
            state = .declined(code: code, detail: text("error_detail") ?? "")
        case let other:
            throw unreadable("unknown state \(other ?? "NULL")")
        }
        let clamped = min(max(Int64(milliseconds), SquareOfflinePayment.millisecondRange.lowerBound), SquareOfflinePayment.millisecondRange.upperBound)
        return SquareOfflinePayment(
            localID: localID, createdAt: SquareOfflinePayment.date(milliseconds: clamped), request: request,
            cardBrand: text("card_brand"), last4: text("last4"), entryMethod: text("entry_method"), state: state)
    }
}
