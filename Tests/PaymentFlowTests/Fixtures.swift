import CheckoutModel
import Foundation
import PaymentFlow
import ProviderClients
import ProviderWire

enum Fixture {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let usd = Currency.usd

    static func order(cents: Int = 4505) -> PaymentOrder {
        let cart = Cart(currency: usd, items: [LineItem(sku: "SKU-1", name: "Beans", unitPrice: Money(minorUnits: cents, currency: usd), quantity: 1)])
        // A one-item cart with no shipping or tax costs exactly `cents`.
        return try! PaymentOrder.forCart(cart, merchantName: "Shop")
    }

    static let ids = AttemptIdentifiers(number: 1, idempotencyKey: "key-1", reference: "tc-test")
    static let cashApp = ProviderPlan(id: "cashapp")
    /// A provider with steps before its request and a settlement after approval (Afterpay's shape).
    static let settling = ProviderPlan(id: "afterpay", prepares: true, settles: true)

    static func attempt(
        id: String? = "GRR_one", status: PaymentAttempt.Status = .pending, cents: Int = 4505, refreshesIn seconds: TimeInterval? = 30,
        url: String? = "https://cash.example/authorize/1", grants: [String] = [], provider: String = "cashapp"
    ) -> PaymentAttempt {
        PaymentAttempt(
            provider: provider, id: id, status: status, amount: Money(minorUnits: cents, currency: usd), reference: "tc-test",
            authorizationURL: url, linkRefreshesAt: seconds.map { now.addingTimeInterval($0) },
            payer: status == .approved ? "$shopper" : nil, customerID: status == .approved ? "CST_one" : nil, grants: grants)
    }

    static func approved() -> PaymentAttempt { attempt(status: .approved, refreshesIn: nil, grants: ["GRG_one"]) }

    /// A coordinator in `state`, mid-attempt number 1.
    static func machine(_ state: CheckoutState, provider: ProviderPlan = cashApp, order: PaymentOrder = order()) -> CheckoutMachine {
        CheckoutMachine(state: state, provider: provider, ids: ids, order: order)
    }

    /// A result for attempt number 1.
    static func result(_ outcome: CheckoutMachine.Outcome) -> CheckoutMachine.Event { .result(attempt: 1, outcome) }

    static func cashAppFailure(_ category: String, _ code: String, status: Int = 400) -> CustomerRequestFailure {
        .api(status: status, body: CashAppErrorBody(errors: [CashAppErrorDetail(category: category, code: code, detail: "d", field: "f")]))
    }
}

/// Observes and remembers every state and phase, in order.
final class RecordingObserver: CheckoutObserver, @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [CheckoutState] = []
    private var recordedPhases: [CheckoutPhase] = []
    let label: String
    let journal: Journal?

    init(label: String = "", journal: Journal? = nil) {
        self.label = label
        self.journal = journal
    }

    var states: [CheckoutState] { lock.withLock { recorded } }
    var names: [String] { states.map(\.name) }
    var phases: [String] { lock.withLock { recordedPhases.map(\.name) } }

    func stateDidChange(to state: CheckoutState) {
        lock.withLock { recorded.append(state) }
        journal?.append("\(label):\(state.name)")
    }

    func phaseDidChange(to phase: CheckoutPhase) {
        lock.withLock { recordedPhases.append(phase) }
        journal?.append("\(label):phase \(phase.name)")
    }
}

/// A shared log that shows the order things happened in.
final class Journal: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var entries: [String] { lock.withLock { lines } }
}

/// A provider adapter answering from scripts, counting calls and keeping the keys it was given.
final class ScriptedAdapter: PaymentProviderAdapter, @unchecked Sendable {
    private let lock = NSLock()
    private var retrieveAnswers: [Result<PaymentAttempt, ProviderFailure>]
    private var retrieveCount = 0
    private var keys: [String] = []
    let createAnswer: Result<PaymentAttempt, ProviderFailure>
    let steps: [String]
    let settlement: SettlementOutcome?
    let journal: Journal?

    init(
        create: Result<PaymentAttempt, ProviderFailure>, retrieves: [Result<PaymentAttempt, ProviderFailure>],
        steps: [String] = [], settlement: SettlementOutcome? = nil, journal: Journal? = nil
    ) {
        createAnswer = create
        retrieveAnswers = retrieves
        self.steps = steps
        self.settlement = settlement
        self.journal = journal
    }

    var retrieves: Int { lock.withLock { retrieveCount } }
    var idempotencyKeys: [String] { lock.withLock { keys } }

    func prepare(_ order: PaymentOrder, ids: AttemptIdentifiers, step: @escaping StepReporter) async throws(ProviderFailure) -> PaymentAttempt {
        for name in steps.prefix(2) { await step(name) }
        return PaymentAttempt(provider: "", amount: order.amount, reference: ids.reference)
    }

    func create(_ draft: PaymentAttempt, order: PaymentOrder, ids: AttemptIdentifiers) async throws(ProviderFailure) -> PaymentAttempt {
        lock.withLock { keys.append(ids.idempotencyKey) }
        return try createAnswer.get()
    }

    func update(_ attempt: PaymentAttempt, to draft: PaymentAttempt, order: PaymentOrder, ids: AttemptIdentifiers) async throws(ProviderFailure) -> PaymentAttempt {
        var updated = try createAnswer.get()
        updated.amount = draft.amount
        return updated
    }

    func retrieve(_ attempt: PaymentAttempt, refreshing: Bool) async throws(ProviderFailure) -> PaymentAttempt {
        journal?.append("retrieve")
        let answer = lock.withLock { () -> Result<PaymentAttempt, ProviderFailure> in
            retrieveCount += 1
            return retrieveAnswers.count > 1 ? retrieveAnswers.removeFirst() : retrieveAnswers[0]
        }
        return try answer.get()
    }

    func settle(_ attempt: PaymentAttempt, ids: AttemptIdentifiers, step: @escaping StepReporter) async -> SettlementOutcome {
        for name in steps.dropFirst(2) { await step(name) }
        return settlement ?? .completed(SettlementReceipt(paymentID: "PAY_1", payer: attempt.payer))
    }
}
