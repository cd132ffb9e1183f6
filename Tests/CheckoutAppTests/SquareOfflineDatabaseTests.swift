@testable import CheckoutApp
import Foundation
import PaymentFlow
import ProviderWire
import SQLiteNIO
import Testing

/// Square's offline payment queue on disk: what is written is there for the next process, in
/// the order the payments were taken, with what became of each; a file that is not the queue
/// is an error naming it, never a crash.
@Suite struct SquareOfflineDatabaseTests {
    /// A fresh folder (not yet made) and the queue's path inside it.
    private func scratch() -> (folder: String, path: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("square-offline-\(UUID().uuidString)").path
        return (folder, (folder as NSString).appendingPathComponent("data/square-offline.sqlite"))
    }

    private func payment(_ number: Int, at seconds: TimeInterval, id: String? = nil) -> SquareOfflinePayment {
        SquareOfflinePayment(
            localID: id ?? String(format: "offline-%08x", number), createdAt: Date(timeIntervalSince1970: seconds),
            request: SquareCreatePaymentRequest(
                sourceID: "cnon:reader-contactless-ok", idempotencyKey: "key-\(number)", amountMoney: SquareMoney(amount: 4505 + number, currency: "USD"),
                tipMoney: SquareMoney(amount: 100, currency: "USD"), autocomplete: true, referenceID: "order-\(number)",
                locationID: "L88917AVBK2S5", note: "Terminal checkout ✓"),
            cardBrand: "VISA", last4: "1111", entryMethod: "CONTACTLESS")
    }

    private func permissions(_ path: String) throws -> Int {
        try (FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    @Test func anEnqueuedPaymentIsThereForANewInstanceExactlyAsQueued() async throws {
        let (folder, path) = scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let queued = payment(1, at: 1_763_850_000.123_456)
        try await SquareOfflineDatabase(path: path).enqueue(queued)

        let reopened = try await SquareOfflineDatabase(path: path).all()
        #expect(reopened == [queued])
        #expect(reopened.first?.request.idempotencyKey == "key-1")
        #expect(reopened.first?.createdAt == Date(timeIntervalSince1970: 1_763_850_000.123))
        #expect(reopened.first?.state == .queued)
        // The payments are the owner's alone: the folder 0700, the file 0600.
        #expect(try permissions((path as NSString).deletingLastPathComponent) == 0o700)
        #expect(try permissions(path) == 0o600)
    }

    @Test func uploadedAndDeclinedAreKeptWithWhatSquareSaid() async throws {
        let (folder, path) = scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = SquareOfflineDatabase(path: path)
        for number in 1...3 { try await store.enqueue(payment(number, at: 1_763_850_000 + Double(number))) }
        try await store.markUploaded(localID: "offline-00000001", paymentID: "PAY_1", status: "COMPLETED")
        try await store.markDeclined(localID: "offline-00000002", code: "GENERIC_DECLINE", detail: "Authorization error: 'GENERIC_DECLINE'")

        let states = try await SquareOfflineDatabase(path: path).all().map(\.state)
        #expect(states == [
            .uploaded(paymentID: "PAY_1", status: "COMPLETED"),
            .declined(code: "GENERIC_DECLINE", detail: "Authorization error: 'GENERIC_DECLINE'"),
            .queued,
        ])
        #expect(try await store.queued().map(\.localID) == ["offline-00000003"])
    }

    @Test func paymentsComeBackOldestFirstWhateverOrderTheyWereWritten() async throws {
        let (folder, path) = scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = SquareOfflineDatabase(path: path)
        try await store.enqueue(payment(3, at: 300))
        try await store.enqueue(payment(1, at: 100))
        try await store.enqueue(payment(2, at: 200))
        // Taken in the same millisecond: in the order they were queued.
        try await store.enqueue(payment(5, at: 400))
        try await store.enqueue(payment(4, at: 400))
        #expect(try await store.all().map(\.localID) == ["offline-00000001", "offline-00000002", "offline-00000003", "offline-00000005", "offline-00000004"])
    }

    @Test func markingAPaymentThatIsNotThereOrQueueingOneTwiceIsAnError() async throws {
        let (folder, path) = scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = SquareOfflineDatabase(path: path)
        try await store.enqueue(payment(1, at: 100))
        await #expect {
            try await store.enqueue(payment(1, at: 200))
        } throws: { error in
            (error as? SquareOfflineDatabase.Failure)?.kind == .duplicate && "\(error)".contains("offline-00000001")
        }
        do {
            try await store.markUploaded(localID: "offline-ffffffff", paymentID: "PAY_1", status: "COMPLETED")
            Issue.record("marked a payment that is not there")
        } catch let failure as SquareOfflineDatabase.Failure {
            #expect(failure.kind == .unknownPayment)
            #expect(failure.description.contains("offline-ffffffff"))
        }
        #expect(try await store.all() == [payment(1, at: 100)])
    }

    @Test func aFileThatIsNotADatabaseIsAnErrorNamingItAndIsLeftAlone() async throws {
        let (folder, path) = scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let garbage = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        try garbage.write(to: URL(fileURLWithPath: path))
        let store = SquareOfflineDatabase(path: path)
        for operation in [
            { try await store.all() as Any },
            { try await store.enqueue(payment(1, at: 100)) as Any },
            { try await store.markDeclined(localID: "offline-00000001", code: "X", detail: "") as Any },
        ] {
            do {
                _ = try await operation()
                Issue.record("read a garbage file as the queue")
            } catch let failure as SquareOfflineDatabase.Failure {
                #expect(failure.kind == .notADatabase)
                #expect(failure.path == path)
                #expect(failure.description.contains(path), "\(failure)")
                #expect(failure.description.contains("not an SQLite database"), "\(failure)")
            }
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == garbage)
    }

    /// Writes an SQLite file at `path` with these statements.
    private func sqlite(_ path: String, _ statements: [String]) async throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let connection = try await SQLiteConnection.open(storage: .file(path: path))
        do {
            for statement in statements { _ = try await connection.query(statement) }
        } catch {
            try await connection.close()
            throw error
        }
        try await connection.close()
    }

    @Test(arguments: [
        // A newer version's queue.
        ["PRAGMA user_version = 7"],
        // This version's schema number, but some other table of that name.
        ["CREATE TABLE square_offline_payments (id INTEGER PRIMARY KEY, amount INTEGER)", "PRAGMA user_version = 1"],
    ])
    func aDatabaseThatIsNotThisQueueIsRefusedNamingIt(statements: [String]) async throws {
        let (folder, path) = scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try await sqlite(path, statements)
        for operation in [{ try await SquareOfflineDatabase(path: path).all() as Any }, { try await SquareOfflineDatabase(path: path).enqueue(payment(1, at: 1)) as Any }] {
            await #expect {
                _ = try await operation()
            } throws: { error in
                guard let failure = error as? SquareOfflineDatabase.Failure else { return false }
                return failure.kind == .unexpectedContents && failure.description.contains(path)
            }
        }
    }

    @Test func aRowThatDoesNotReadBackIsAnErrorNamingThePayment() async throws {
        let (folder, path) = scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try await SquareOfflineDatabase(path: path).enqueue(payment(1, at: 1))
        try await sqlite(path, ["UPDATE square_offline_payments SET request = '{\"source_id\": 5}'"])
        await #expect {
            try await SquareOfflineDatabase(path: path).all()
        } throws: { error in
            guard let failure = error as? SquareOfflineDatabase.Failure else { return false }
            return failure.kind == .unreadableRow && failure.description.contains("offline-00000001") && failure.description.contains(path)
        }
    }

    @Test func aFolderWhereTheFileShouldBeIsAnErrorNamingIt() async throws {
        let (folder, path) = scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        await #expect {
            try await SquareOfflineDatabase(path: path).all()
        } throws: { error in
            guard let failure = error as? SquareOfflineDatabase.Failure else { return false }
            return failure.kind == .cannotOpen && failure.description.contains(path)
        }
    }

    @Test func aFolderThatCannotBeMadeIsAnErrorNamingIt() async throws {
        let (folder, _) = scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // A file where the folder should be.
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let blocker = (folder as NSString).appendingPathComponent("data")
        try Data("x".utf8).write(to: URL(fileURLWithPath: blocker))
        let path = (blocker as NSString).appendingPathComponent("square-offline.sqlite")
        await #expect {
            try await SquareOfflineDatabase(path: path).enqueue(payment(1, at: 100))
        } throws: { error in
            guard let failure = error as? SquareOfflineDatabase.Failure else { return false }
            return failure.kind == .cannotOpen && failure.description.contains(path)
        }
    }

    @Test func writesAreSyncedInFullAtEveryCommit() async throws {
        let (folder, path) = scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let settings = try await SquareOfflineDatabase(path: path).durabilitySettings()
        #expect(settings.journalMode == "delete")
        #expect(settings.synchronous == 2)  // FULL
    }

    @Test func concurrentWritersLoseNothing() async throws {
        let (folder, path) = scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for number in 1...12 {
                group.addTask { try await SquareOfflineDatabase(path: path).enqueue(self.payment(number, at: Double(number))) }
            }
            try await group.waitForAll()
        }
        #expect(try await SquareOfflineDatabase(path: path).all().map(\.localID) == (1...12).map { String(format: "offline-%08x", $0) })
    }

    @Test func theDefaultPathFollowsTheDataDirThenXDGThenHome() {
        #expect(SquareOfflineDatabase.defaultPath(environment: ["TERMINALCHECKOUT_DATA_DIR": "/srv/till", "XDG_DATA_HOME": "/x", "HOME": "/h"])
            == "/srv/till/square-offline.sqlite")
        #expect(SquareOfflineDatabase.defaultPath(environment: ["XDG_DATA_HOME": "/x/data", "HOME": "/h"]) == "/x/data/terminalcheckout/square-offline.sqlite")
        #expect(SquareOfflineDatabase.defaultPath(environment: ["TERMINALCHECKOUT_DATA_DIR": "", "HOME": "/home/ada"])
            == "/home/ada/.local/share/terminalcheckout/square-offline.sqlite")
        // A relative XDG_DATA_HOME is ignored, as the spec says.
        #expect(SquareOfflineDatabase.defaultPath(environment: ["XDG_DATA_HOME": "data", "HOME": "/home/ada"])
            == "/home/ada/.local/share/terminalcheckout/square-offline.sqlite")
    }

    @Test func aLocalIDIsOfflineAndEightLowercaseHexDigits() {
        for _ in 0..<200 {
            let id = SquareOfflinePayment.newLocalID()
            #expect(id.hasPrefix("offline-") && id.count == 16, "\(id)")
            #expect(id.dropFirst(8).allSatisfy { "0123456789abcdef".contains($0) }, "\(id)")
        }
    }
}
