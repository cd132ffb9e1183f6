import Foundation
import PaymentFlow
import ProviderClients
import ProviderWire

enum Fixture {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static let params = CreateCustomerRequestParams(
        actions: [.oneTimePayment(scopeID: "BRAND_test", amount: 4505, currency: "USD")],
        channel: .ONLINE, redirectURL: "terminalcheckout://return")

    static func request(
        id: String = "GRR_one", status: CustomerRequest.Status = .PENDING,
        refreshesIn seconds: TimeInterval? = 30, mobileURL: String? = "https://cash.example/authorize/1",
        grants: [Grant]? = nil
    ) -> CustomerRequest {
        let triggers = seconds.map { seconds in
            mobileURL.map {
                CustomerRequest.AuthFlowTriggers(
                    qrCodeImageURL: "https://cash.example/qr.png", qrCodeSVGURL: "https://cash.example/qr.svg",
                    mobileURL: $0, refreshesAt: now.addingTimeInterval(seconds))
            }
        } ?? nil
        return CustomerRequest(
            id: id, status: status, actions: params.actions, authFlowTriggers: triggers,
            redirectURL: params.redirectURL, createdAt: now, updatedAt: now, expiresAt: now.addingTimeInterval(3600),
            origin: .init(type: "DIRECT"), channel: .ONLINE, referenceID: nil,
            requesterProfile: .init(name: "Shop", logoURL: nil), customerProfile: nil, metadata: nil, grants: grants)
    }

    static let grant = Grant(
        id: "GRG_one", customerID: "CST_one", action: params.actions[0], status: .ACTIVE, type: .ONE_TIME,
        channel: .ONLINE, createdAt: now, updatedAt: now, expiresAt: nil)

    static func approved() -> CustomerRequest {
        var request = request(status: .APPROVED, refreshesIn: nil, grants: [grant])
        request.customerProfile = .init(id: "CST_one", cashtag: "$shopper")
        return request
    }

    static func apiFailure(_ category: String, _ code: String, status: Int = 400) -> CustomerRequestFailure {
        .api(status: status, errors: [CashAppErrorDetail(category: category, code: code, detail: "d", field: "f")])
    }
}

/// Observes and remembers every state, in order.
final class RecordingObserver: CashAppPayObserver, @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [CashAppPayState] = []
    let label: String
    let journal: Journal?

    init(label: String = "", journal: Journal? = nil) {
        self.label = label
        self.journal = journal
    }

    var states: [CashAppPayState] { lock.withLock { recorded } }
    var names: [String] { states.map(\.name) }

    func stateDidChange(to state: CashAppPayState) {
        lock.withLock { recorded.append(state) }
        journal?.append("\(label):\(state.name)")
    }
}

/// A shared log that shows the order observers were called in.
final class Journal: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var entries: [String] { lock.withLock { lines } }
}

/// A Customer Request API double answering from scripts, counting calls.
final class ScriptedAPI: CustomerRequestAPI, @unchecked Sendable {
    private let lock = NSLock()
    private var retrieveAnswers: [Result<CustomerRequest, CustomerRequestFailure>]
    private(set) var retrieveCount = 0
    let createAnswer: Result<CustomerRequest, CustomerRequestFailure>
    let journal: Journal?

    init(
        create: Result<CustomerRequest, CustomerRequestFailure>, retrieves: [Result<CustomerRequest, CustomerRequestFailure>],
        journal: Journal? = nil
    ) {
        createAnswer = create
        retrieveAnswers = retrieves
        self.journal = journal
    }

    var retrieves: Int { lock.withLock { retrieveCount } }

    func create(_ params: CreateCustomerRequestParams) async throws(CustomerRequestFailure) -> CustomerRequest {
        try createAnswer.get()
    }

    func retrieve(id: String, retryPolicy: RetryPolicy?) async throws(CustomerRequestFailure) -> CustomerRequest {
        journal?.append("retrieve")
        let answer = lock.withLock { () -> Result<CustomerRequest, CustomerRequestFailure> in
            retrieveCount += 1
            return retrieveAnswers.count > 1 ? retrieveAnswers.removeFirst() : retrieveAnswers[0]
        }
        return try answer.get()
    }

    func update(id: String, with params: UpdateCustomerRequestParams) async throws(CustomerRequestFailure) -> CustomerRequest {
        var request = try createAnswer.get()
        if let actions = params.actions { request.actions = actions }
        return request
    }
}
