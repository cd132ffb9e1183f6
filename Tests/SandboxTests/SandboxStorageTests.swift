@testable import CheckoutApp
import Crypto
import Foundation
import JWTKit
import ProviderClients
import ProviderWire
@testable import Sandbox
import Synchronization
import Testing
import TestSupport

/// Every provider's state goes through the one store abstraction: each store is made by the
/// settings' storage under a name of its own, its records survive the coding a database store
/// gives them, and a store that fails makes each provider answer 503 in its own error shape.
@Suite struct SandboxStorageTests {
    /// Every store a sandbox of the built-in providers makes.
    static let storeNames: Set<String> = [
        "cashapp.requests", "afterpay.checkouts", "adyen.payments", "adyen.sessions", "adyen.stored-methods", "adyen.idempotency",
        "square.payments", "antom.sessions", "antom.clients", "wallet.tokens", "webhooks.receivers", "webhooks.deliveries", "webhooks.queue",
        "sandbox.faults", "sandbox.journal",
    ]

    private static func settings(_ storage: any SandboxStorage) -> SandboxSettings {
        var settings = SandboxSettings()
        settings.storage = storage
        settings.webhookRetryDelay = 0.01
        settings.webhookAttempts = 1
        return settings
    }

    private static let http = ProviderHTTPClient(timeout: .seconds(10), retryPolicy: RetryPolicy(maxAttempts: 1, baseDelay: .milliseconds(1)))

    private static func send(
        _ sandbox: RunningSandbox, _ method: String, _ path: String, body: String? = nil, headers: [(name: String, value: String)] = []
    ) async throws -> ProviderResponse {
        let all = [(name: "Content-Type", value: "application/json")] + headers
        return try await http.send(
            ProviderRequest(method: method, url: sandbox.baseURL + path, headers: all, body: body.map { Data($0.utf8) }), provider: "test")
    }

    @Test func everyStoreIsMadeByTheStorageUnderANameOfItsOwn() async throws {
        let storage = RoundTripStorage()
        try await SandboxServer.withRunning(Self.settings(storage)) { _ in }
        let made = storage.made
        #expect(Set(made) == Self.storeNames)
        #expect(made.count == Set(made).count, "a name made twice: \(made.sorted())")
    }

    /// Checkouts through every provider, a webhook receiver, a fault and a wallet token: every
    /// record any store keeps or answers is encoded and decoded as a database store would, and
    /// must come back equal (dates to the last bit, money, enums, optional fields).
    @Test func everyProvidersRecordsComeBackEqualFromTheirCoding() async throws {
        let storage = RoundTripStorage()
        try await SandboxServer.withRunning(Self.settings(storage)) { sandbox in
            let receiver = try await Self.send(sandbox, "POST", "/sandbox/webhooks", body: #"{"url": "http://127.0.0.1:9/webhooks"}"#)
            #expect(receiver.status == 201)
            try await sandbox.faults.add(try FaultRule(spec: "GET /never-asked 500*2"))
            for provider in ProviderRegistry.builtIn.ids where provider != "wallet" {
                var scenario = Scenario(name: "round-trip")
                scenario.provider = provider
                let status = await HeadlessCheckout(
                    options: HeadlessOptions(session: SessionOptions(sandboxURL: sandbox.baseURL), scenario: scenario, timeoutSeconds: 30),
                    write: { _ in }, writeError: { _ in }
                ).run()
                #expect(status == .approved, "\(provider)")
            }
            let token = WalletTokenRequest(merchantIdentifier: "merchant.com.terminalcheckout.test", network: "visa", last4: "1234", amount: 4505, currency: "USD")
            let issued = try await Self.send(sandbox, "POST", "/wallet/tokens", body: String(decoding: try WireJSON.encoder().encode(token), as: UTF8.self))
            #expect(issued.status == 200, "\(String(decoding: issued.body, as: UTF8.self))")
            #expect(try await Self.send(sandbox, "GET", "/sandbox/ledger").status == 200)
        }
        #expect(storage.failures.isEmpty, "\(storage.failures)")
        let exercised = storage.exercised
        for name in ["cashapp.requests", "afterpay.checkouts", "adyen.payments", "square.payments", "antom.sessions", "wallet.tokens",
            "webhooks.receivers", "webhooks.deliveries", "webhooks.queue", "sandbox.faults"]
        {
            #expect(exercised.contains(name), "no record of \(name) went through its coding")
        }
    }

    @Test func theAntomClientKeepsItsKeyThroughItsCoding() throws {
        let client = AntomClients(storage: MemoryStorage()).builtIn
        let back = try StoredRecordCoding.decoder().decode(AntomClients.Client.self, from: try StoredRecordCoding.encoder().encode(client))
        #expect(back == client)
        #expect(back.publicKey.derRepresentation == client.publicKey.derRepresentation)
    }

    @Test func aDateComesBackToTheLastBit() throws {
        let odd = Date(timeIntervalSinceReferenceDate: 817_000_000.123_456_789_1)
        struct Holder: Codable, Equatable { let date: Date }
        let back = try StoredRecordCoding.decoder().decode(Holder.self, from: try StoredRecordCoding.encoder().encode(Holder(date: odd)))
        #expect(back.date.timeIntervalSinceReferenceDate.bitPattern == odd.timeIntervalSinceReferenceDate.bitPattern)
    }

    // MARK: - A store that fails

    /// One request per provider whose answer needs the store, and what its 503 must look like.
    struct Case: Sendable, CustomStringConvertible {
        let store: String
        let method: String
        let path: String
        var body: String?
        var headers: [(name: String, value: String)] = []
        /// Checks the error body is in the provider's shape.
        let shape: @Sendable ([String: Any]) -> Bool

        var description: String { "\(store): \(method) \(path)" }
    }

    static let cases: [Case] = [
        Case(
            store: "cashapp.", method: "GET", path: "/customer-request/v1/requests/GRR_unknown",
            headers: [(name: "Authorization", value: "Client CAS-CI_X")],
            shape: { body in
                let error = (body["errors"] as? [[String: Any]])?.first
                return error?["code"] as? String == "SERVICE_UNAVAILABLE" && error?["category"] as? String == "API_ERROR"
            }),
        Case(
            store: "afterpay.", method: "GET", path: "/v2/checkouts/002.token",
            headers: [(name: "Authorization", value: "Basic " + Data("100101:sandbox-secret-key".utf8).base64EncodedString())],
            shape: { body in body["errorCode"] as? String == "service_unavailable" && body["httpStatusCode"] as? Int == 503 }),
        Case(
            store: "adyen.", method: "GET", path: "/v71/storedPaymentMethods?merchantAccount=TestMerchant&shopperReference=shopper-1",
            headers: [(name: "x-api-key", value: "AQEtestkey")],
            shape: { body in body["status"] as? Int == 503 && body["errorType"] as? String == "internal" && body["errorCode"] != nil }),
        Case(
            store: "square.", method: "GET", path: "/v2/payments/SQPAYMENT0001",
            headers: [(name: "Authorization", value: "Bearer EAAAtoken")],
            shape: { body in
                let error = (body["errors"] as? [[String: Any]])?.first
                return error?["code"] as? String == "SERVICE_UNAVAILABLE" && error?["category"] as? String == "API_ERROR"
            }),
        Case(
            store: "antom.", method: "GET", path: "/sandbox/antom/cashier/SBXSESSION1",
            shape: { body in
                let result = body["result"] as? [String: Any]
                return result?["resultStatus"] as? String == "U" && result?["resultCode"] as? String == "UNKNOWN_EXCEPTION"
            }),
        Case(
            store: "wallet.", method: "POST", path: "/wallet/tokens",
            body: #"{"merchantIdentifier": "merchant.com.terminalcheckout.test", "network": "visa", "last4": "1234", "amount": 4505, "currency": "USD"}"#,
            shape: { body in (body["error"] as? String)?.hasPrefix("SERVICE_UNAVAILABLE") == true }),
        Case(
            store: "webhooks.", method: "GET", path: "/sandbox/webhooks",
            shape: { body in ((body["errors"] as? [[String: Any]])?.first?["code"] as? String) == "SERVICE_UNAVAILABLE" }),
    ]

    @Test(arguments: cases)
    func aFailingStoreAnswers503InTheProvidersShape(_ failing: Case) async throws {
        let storage = FailingStorage(failing: failing.store)
        try await SandboxServer.withRunning(Self.settings(storage)) { sandbox in
            let response = try await Self.send(sandbox, failing.method, failing.path, body: failing.body, headers: failing.headers)
            let text = String(decoding: response.body, as: UTF8.self)
            #expect(response.status == 503, "\(failing): \(text)")
            let body = try JSONSerialization.jsonObject(with: response.body) as? [String: Any] ?? [:]
            #expect(failing.shape(body), "\(failing): \(text)")
            #expect(!text.contains("injected"), "a store failure is not an injected fault: \(text)")
            // Nothing else broke: the health route needs no store.
            #expect(try await Self.send(sandbox, "GET", "/sandbox/health").status == 200)
        }
    }

    @Test func aFailingFaultPlanAnswers503InTheShapeOfTheProviderAsked() async throws {
        try await SandboxServer.withRunning(Self.settings(FailingStorage(failing: "sandbox.faults"))) { sandbox in
            let response = try await Self.send(sandbox, "GET", "/v2/payments/SQPAYMENT0001", headers: [(name: "Authorization", value: "Bearer EAAAtoken")])
            #expect(response.status == 503)
            let body = try JSONSerialization.jsonObject(with: response.body) as? [String: Any] ?? [:]
            #expect(((body["errors"] as? [[String: Any]])?.first?["code"] as? String) == "SERVICE_UNAVAILABLE")
        }
    }

    /// The payment is kept before its webhook is sent: a store that cannot list the receivers
    /// costs the webhook (reported), never the payment's answer, so no client retries a payment
    /// that was made; and the same Idempotency-Key still replays the one payment.
    @Test func aWebhookStoreFailureAfterAPaymentAnswersThePaymentAndReportsIt() async throws {
        var settings = Self.settings(FailingStorage(failing: "webhooks.receivers"))
        settings.adyen.asyncResultDelay = 0.05
        let reported = Mutex<[String]>([])
        settings.reportProblem = { problem in reported.withLock { $0.append(problem) } }
        try await SandboxServer.withRunning(settings) { sandbox in
            let adyen = AdyenTestSandbox(sandbox: sandbox)
            let payment = AdyenTestSandbox.payment(4505, ["grantId": try await adyen.grant(4505)])
            let pay = { try AdyenTestSandbox.object(try await adyen.adyen("POST", "/v71/payments", payment, idempotencyKey: "pay-once")) }
            let first = try await pay()
            #expect(first["resultCode"] as? String == "Authorised", "\(first)")
            let again = try await pay()
            #expect(again["pspReference"] as? String == first["pspReference"] as? String)
            let payments = try await adyen.ledger()["adyen_payments"] as? [[String: Any]] ?? []
            #expect(payments.count == 1, "\(payments)")
        }
        #expect(reported.withLock { $0 }.contains { $0.contains("not sent") && $0.contains("could not list the receivers") }, "\(reported.withLock { $0 })")
    }

    // MARK: - Choosing the store

    @Test func anUnreachableDatabaseIsAnErrorNamingItsURLWithoutThePassword() async throws {
        var settings = SandboxSettings()
        #expect(settings.store == .memory)
        #expect(settings.storage is MemoryStorage)
        // Port 1 on loopback: nothing listens there, so the connection is refused at once.
        let choice = SandboxStoreChoice.postgres(url: "postgres://alice:s3cret@127.0.0.1:1/sandbox?sslmode=disable", poolSize: 8)
        do {
            try await settings.useStore(choice)
            Issue.record("a store was made on a closed port")
        } catch {
            #expect(error.description.contains("postgres://alice:***@127.0.0.1:1/sandbox"), "\(error)")
            #expect(error.description.contains("refused"), "\(error)")
            #expect(!error.description.contains("s3cret"))
        }
        #expect(settings.store == .memory)
        try await settings.useStore(.memory)
        #expect(settings.storage is MemoryStorage)
    }

    @Test func aStoreURLIsShownWithoutItsPassword() {
        #expect(SandboxStoreURL.redacting("postgres://alice:s3cret@db:5432/sandbox") == "postgres://alice:***@db:5432/sandbox")
        #expect(SandboxStoreURL.redacting("postgres://alice@db:5432/sandbox") == "postgres://alice@db:5432/sandbox")
        #expect(SandboxStoreURL.redacting("postgresql://a:b:c@db:1/x?sslmode=require") == "postgresql://a:***@db:1/x?sslmode=require")
        #expect(SandboxStoreURL.redacting("postgres://a:p@ss@db:1/x") == "postgres://a:***@db:1/x")
        #expect("\(SandboxStoreChoice.postgres(url: "postgres://a:pw@h:5/d", poolSize: 3))" == "postgres://a:***@h:5/d (pool 3)")
    }

    /// A URL, and a word its problem must name (nil when it is accepted).
    @Test(arguments: [
        ("postgres://alice@db.example:5432/sandbox", nil),
        ("postgresql://alice:pw@127.0.0.1:5433/sandbox", nil),
        ("mysql://alice@db:3306/x", "scheme"),
        ("postgres://db.example:5432/sandbox", "USER"),
        ("postgres://alice@:5432/sandbox", "HOST"),
        ("postgres://alice@db.example/sandbox", nil),  // PostgreSQL's own port, 5432
        ("postgres://alice@db.example:5432/sandbox?sslmode=sometimes", "sslmode"),
        ("postgres://alice@db.example:5432/", "database"),
        ("postgres://alice:pw@db.example:70000/x", "70000"),
        ("not a url", "postgres://"),
    ] as [(String, String?)])
    func aStoreURLIsCheckedField(_ url: String, _ named: String?) {
        let problem = SandboxStoreURL.problem(url)
        guard let named else {
            #expect(problem == nil, "\(problem ?? "")")
            return
        }
        #expect(problem?.contains(named) == true, "\(problem ?? "accepted")")
        #expect(problem?.contains(":pw@") != true, "the password is shown: \(problem ?? "")")
    }
}

/// The memory store, with every record it keeps or answers sent through `StoredRecordCoding`
/// first and compared with what came back.
final class RoundTripStorage: SandboxStorage {
    private let state = Mutex<(made: [String], exercised: Set<String>, failures: [String])>(([], [], []))

    var made: [String] { state.withLock { $0.made } }
    var exercised: Set<String> { state.withLock { $0.exercised } }
    var failures: [String] { state.withLock { $0.failures } }

    func store<Record: StoredRecord & Codable>(_ name: String, of type: Record.Type, policy: StorePolicy<Record>)
        -> any SandboxRecordStore<Record>
    {
        state.withLock { $0.made.append(name) }
        return RoundTripRecordStore(name: name, base: MemoryRecordStore(policy: policy), storage: self)
    }

    func check<Record: StoredRecord & Codable>(_ record: Record, in name: String) {
        let problem: String?
        do {
            let data = try StoredRecordCoding.encoder().encode(record)
            let back = try StoredRecordCoding.decoder().decode(Record.self, from: data)
            if let equatable = record as? any Equatable {
                problem = Self.same(equatable, back) ? nil : "\(name): \(Record.self) came back different:\n\(record)\n\(back)"
            } else {
                problem = "\(name): \(Record.self) is not Equatable, so its round trip cannot be checked"
            }
        } catch {
            problem = "\(name): \(Record.self) could not be coded: \(error)"
        }
        state.withLock { state in
            state.exercised.insert(name)
            if let problem { state.failures.append(problem) }
        }
    }

    private static func same<T: Equatable>(_ record: T, _ back: Any) -> Bool { (back as? T) == record }
}

struct RoundTripRecordStore<Record: StoredRecord & Codable>: SandboxRecordStore {
    let name: String
    let base: MemoryRecordStore<Record>
    let storage: RoundTripStorage

    private func checked(_ record: Record?) -> Record? {
        if let record { storage.check(record, in: name) }
        return record
    }

    func create(
        idempotencyKey: String?, requiring claims: [String], at moment: StoreMoment, sameRequest: (Record) -> Bool,
        alongside: (inout Record, Record) -> Void, make: (Int) -> Record
    ) async throws -> RecordCreation<Record> {
        let outcome = base.create(
            idempotencyKey: idempotencyKey, requiring: claims, at: moment, sameRequest: sameRequest, alongside: alongside, make: make)
        switch outcome {
        case .created(let record), .replayed(let record), .keyReused(let record), .claimTaken(let record): _ = checked(record)
        }
        return outcome
    }

    func record(_ lookup: RecordLookup, at moment: StoreMoment?) async throws -> Record? { checked(base.record(lookup, at: moment)) }

    func update<Value>(_ lookup: RecordLookup, at moment: StoreMoment?, _ change: (inout Record) -> Value) async throws -> RecordUpdate<Value, Record> {
        base.update(lookup, at: moment) { record in
            let value = change(&record)
            _ = checked(record)
            return value
        }
    }

    func remove(_ key: String, if condition: (Record) -> Bool) async throws -> Record? { checked(base.remove(key, if: condition)) }

    func records(at moment: StoreMoment?) async throws -> [Record] {
        let all = base.records(at: moment)
        for record in all { _ = checked(record) }
        return all
    }

    func first(at moment: StoreMoment?, where predicate: (Record) -> Bool) async throws -> Record? {
        checked(base.first(at: moment, where: predicate))
    }

    func settle(at moment: StoreMoment) async throws { base.settle(at: moment) }

    func count() async throws -> Int { base.count() }
}

/// The memory store, except that every store whose name starts with `failing` throws on every
/// operation, as a database that went away does.
struct FailingStorage: SandboxStorage {
    let failing: String

    struct Down: Error {}

    func store<Record: StoredRecord & Codable>(_ name: String, of type: Record.Type, policy: StorePolicy<Record>)
        -> any SandboxRecordStore<Record>
    {
        name.hasPrefix(failing) ? FailingRecordStore<Record>() : MemoryRecordStore<Record>(policy: policy)
    }
}

struct FailingRecordStore<Record: StoredRecord & Codable>: SandboxRecordStore {
    func create(
        idempotencyKey: String?, requiring claims: [String], at moment: StoreMoment, sameRequest: (Record) -> Bool,
        alongside: (inout Record, Record) -> Void, make: (Int) -> Record
    ) async throws -> RecordCreation<Record> { throw FailingStorage.Down() }
    func record(_ lookup: RecordLookup, at moment: StoreMoment?) async throws -> Record? { throw FailingStorage.Down() }
    func update<Value>(_ lookup: RecordLookup, at moment: StoreMoment?, _ change: (inout Record) -> Value) async throws -> RecordUpdate<Value, Record> {
        throw FailingStorage.Down()
    }
    func remove(_ key: String, if condition: (Record) -> Bool) async throws -> Record? { throw FailingStorage.Down() }
    func records(at moment: StoreMoment?) async throws -> [Record] { throw FailingStorage.Down() }
    func first(at moment: StoreMoment?, where predicate: (Record) -> Bool) async throws -> Record? { throw FailingStorage.Down() }
    func settle(at moment: StoreMoment) async throws { throw FailingStorage.Down() }
    func count() async throws -> Int { throw FailingStorage.Down() }
}

/// What one instance signs, another verifies: Afterpay's signing key is the sandbox's, not the process's.
@Suite struct AfterpaySigningKeyTests {
    @Test func twoSignersShareTheSandboxKey() async throws {
        let one = await AfterpaySigner()
        let other = await AfterpaySigner()
        #expect(one.publicKey.pemRepresentation == other.publicKey.pemRepresentation)
        #expect((try? AfterpaySigner.sandboxKey()) != nil, "the fixed key must be a P-256 scalar")
        let payment = AfterpaySignedPayment(
            amount: .init(amount: "10.00", currency: "USD", symbol: "$"), token: "002.x", externalMerchantId: "m", redirectUrl: "x://y")
        let jwt = try await one.sign(payment)
        #expect(await other.verify(jwt)?.token == "002.x")
    }

    /// A sandbox of an earlier version, on the same shared store, verifies what this one signs:
    /// the key is still the phrase's SHA-256, as that version read it from base64url.
    @Test func theKeyIsTheOneEarlierVersionsSignedWith() async throws {
        let hash = Data(SHA256.hash(data: Data(AfterpaySigner.sandboxKeyPhrase.utf8))).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        let earlier = try ES256PrivateKey(key: hash)
        #expect(await AfterpaySigner().publicKey.pemRepresentation == earlier.publicKey.pemRepresentation)
    }
}

/// Two sandboxes on one storage are one sandbox: what is made through one is read, approved and
/// counted through the other. (In one process, each name's memory store shared: what a database
/// store will give instances on several machines.)
@Suite struct SharedStorageTests {
    /// Hands every sandbox the same store for a name.
    final class SharedStorage: SandboxStorage {
        private let stores = Mutex<[String: any Sendable]>([:])

        func store<Record: StoredRecord & Codable>(_ name: String, of type: Record.Type, policy: StorePolicy<Record>)
            -> any SandboxRecordStore<Record>
        {
            stores.withLock { stores in
                if let made = stores[name] as? MemoryRecordStore<Record> { return made }
                let made = MemoryRecordStore<Record>(policy: policy)
                stores[name] = made
                return made
            }
        }
    }

    private static let http = ProviderHTTPClient(timeout: .seconds(10), retryPolicy: RetryPolicy(maxAttempts: 1, baseDelay: .milliseconds(1)))

    private static func cashApp(_ sandbox: RunningSandbox, _ method: String, _ path: String, body: String? = nil) async throws -> (Int, [String: Any]) {
        let response = try await http.send(
            ProviderRequest(
                method: method, url: sandbox.baseURL + path,
                headers: [(name: "Content-Type", value: "application/json"), (name: "Authorization", value: "Client \(SandboxHarness.clientID)")],
                body: body.map { Data($0.utf8) }),
            provider: "test")
        return (response.status, (try? JSONSerialization.jsonObject(with: response.body) as? [String: Any]) ?? [:])
    }

    @Test func aRequestMadeOnOneIsReadApprovedAndFaultedOnTheOther() async throws {
        var settings = SandboxSettings()
        settings.storage = SharedStorage()
        try await SandboxServer.withRunning(settings) { first in
            try await SandboxServer.withRunning(settings) { second in
                let create = #"{"idempotency_key": "shared-1", "request": {"actions": [{"type": "ONE_TIME_PAYMENT", "scope_id": "BRAND_harness", "amount": 4505, "currency": "USD"}], "channel": "ONLINE", "redirect_url": "x://y"}}"#
                let (madeStatus, made) = try await Self.cashApp(first, "POST", "/customer-request/v1/requests", body: create)
                #expect(madeStatus == 201)
                let id = try #require((made["request"] as? [String: Any])?["id"] as? String)
                // The same key and body through the other: the same request, not a second one.
                let (_, again) = try await Self.cashApp(second, "POST", "/customer-request/v1/requests", body: create)
                #expect((again["request"] as? [String: Any])?["id"] as? String == id)
                #expect(try await first.cashAppSandbox?.requests.requestCount == 1)

                let (readStatus, read) = try await Self.cashApp(second, "GET", "/customer-request/v1/requests/\(id)")
                #expect(readStatus == 200)
                #expect((read["request"] as? [String: Any])?["status"] as? String == "PENDING")
                try await SandboxControlClient(baseURL: second.baseURL, http: Self.http).act(.approve, on: id)
                let (_, approved) = try await Self.cashApp(first, "GET", "/customer-request/v1/requests/\(id)")
                #expect((approved["request"] as? [String: Any])?["status"] as? String == "APPROVED")

                // A fault added through one hits the other, once.
                try await SandboxControlClient(baseURL: first.baseURL, http: Self.http).inject(fault: "GET /customer-request 503")
                #expect(try await Self.cashApp(second, "GET", "/customer-request/v1/requests/\(id)").0 == 503)
                #expect(try await Self.cashApp(first, "GET", "/customer-request/v1/requests/\(id)").0 == 200)
                #expect(try await first.faults.pending.isEmpty)
                #expect(try await second.faults.pending.isEmpty)
            }
        }
    }
}
