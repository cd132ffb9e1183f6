import CheckoutModel
import Foundation
import ProviderClients
import ProviderWire

/// Cash App Pay through an Afterpay merchant account: before the customer request exists,
/// create the checkout token (the merchant's server) and sign it; the customer request is
/// made from the signed payment; after `approved`, validate (never skipped) and capture.
public actor AfterpayAdapter: PaymentProviderAdapter {
    public static let tokenStep = "token"
    public static let signingStep = "signing"
    public static let validatingStep = "validating"
    public static let capturingStep = "capturing"

    public let provider: String
    public let afterpay: AfterpayClient
    public let customerRequests: any CustomerRequestAPI
    /// The customer request is Cash App's: made and read as Cash App Pay makes and reads it.
    private let cashApp: CashAppRequests
    /// The signed payment and merchant reference of each attempt, by attempt number.
    private var signed: [Int: SignedPayment] = [:]
    private var references: [Int: String] = [:]

    /// Why the Afterpay account and the Cash App host cannot be used together (one is sandbox,
    /// the other production): the checkout ends before any call. Nil when they match.
    public let environmentProblem: String?
    /// Get Configuration's answer, read once per adapter (Afterpay: "call Get Configuration on a
    /// fixed schedule, preferably once per day").
    private var merchantConfiguration: AfterpayMerchantConfiguration?

    public init(
        provider: String, afterpay: AfterpayClient, customerRequests: any CustomerRequestAPI,
        refreshRetry: RetryPolicy = .standard.withMaxAttempts(3), environmentProblem: String? = nil
    ) {
        self.provider = provider
        self.afterpay = afterpay
        self.customerRequests = customerRequests
        self.environmentProblem = environmentProblem
        cashApp = CashAppRequests(provider: provider, client: customerRequests, refreshRetry: refreshRetry)
    }

    /// configuration → token → signing; the draft carries the signed amount. Afterpay signs
    /// amounts, so a changed cart goes through here again before the request is updated. A
    /// failed signing is retried once with a new checkout token, as the seed advises ("retry
    /// with a new token"); the unsigned token is never captured, so nothing is charged twice.
    public func prepare(_ order: PaymentOrder, ids: AttemptIdentifiers, step: @escaping StepReporter) async throws(ProviderFailure) -> PaymentAttempt {
        if let environmentProblem {
            throw ProviderFailure(kind: .integration, category: "AFTERPAY", code: "ENVIRONMENT_MISMATCH", detail: environmentProblem)
        }
        let reference = order.reference ?? ids.reference
        references[ids.number] = reference
        await step(Self.tokenStep)
        try await checkLimits(order.amount)
        let payment: SignedPayment
        do { payment = try await checkoutAndSign(order, reference: reference, step: step) } catch let first {
            guard case .signing = first else { throw first.failure }
            await step(Self.tokenStep)
            do { payment = try await checkoutAndSign(order, reference: reference, step: step) } catch {
                var failure = error.failure
                if case .signing = error {
                    failure.detail = "signing failed again after retrying with a new checkout token: \(failure.detail ?? failure.code)"
                }
                throw failure
            }
        }
        signed[ids.number] = payment
        return PaymentAttempt(provider: provider, amount: payment.amount, reference: reference)
    }

    /// Which call of a checkout-and-sign failed.
    private enum PrepareFailure: Error {
        case checkout(ProviderFailure)
        case signing(ProviderFailure)

        var failure: ProviderFailure {
            switch self {
            case .checkout(let failure), .signing(let failure): failure
            }
        }
    }

    /// A new checkout token, signed.
    private func checkoutAndSign(
        _ order: PaymentOrder, reference: String, step: @escaping StepReporter
    ) async throws(PrepareFailure) -> SignedPayment {
        let token: AfterpayCheckoutResponse
        do { token = try await afterpay.createCheckout(.forOrder(order, reference: reference)) } catch {
            throw .checkout(ProviderFailure(error))
        }
        await step(Self.signingStep)
        do { return try await SignedPayment(signed: try await afterpay.signPayment(token: token.token)) } catch {
            throw .signing(ProviderFailure(error))
        }
    }

    /// Get Configuration (once), then the order's amount against the merchant's limits: an
    /// amount outside them would be refused by Create Checkout.
    private func checkLimits(_ amount: Money) async throws(ProviderFailure) {
        let configuration: AfterpayMerchantConfiguration
        if let known = merchantConfiguration { configuration = known } else {
            do { configuration = try await afterpay.merchantConfiguration() } catch { throw ProviderFailure(error) }
            merchantConfiguration = configuration
        }
        func money(_ wire: AfterpayMoney?) -> Money? {
            guard let wire, let currency = Currency.withCode(wire.currency), currency == amount.currency else { return nil }
            return try? Money(decimal: wire.amount, currency: currency)
        }
        let minimum = money(configuration.minimumAmount)
        let maximum = money(configuration.maximumAmount)
        let below = minimum.map { amount.minorUnits < $0.minorUnits } ?? false
        let above = maximum.map { amount.minorUnits > $0.minorUnits } ?? false
        guard below || above else { return }
        let range = "\(minimum.map(\.decimalString) ?? "0.00")–\(maximum.map(\.decimalString) ?? "any") \(amount.currency.code)"
        throw ProviderFailure(
            kind: .integration, category: "AFTERPAY", code: "UNSUPPORTED_PAYMENT_TYPE",
            detail: "the order amount \(amount.decimalString) \(amount.currency.code) is outside the merchant's Afterpay limits (\(range), from GET /v2/configuration)")
    }

    public func create(_ draft: PaymentAttempt, order: PaymentOrder, ids: AttemptIdentifiers) async throws(ProviderFailure) -> PaymentAttempt {
        guard let payment = signed[ids.number] else { throw Self.notSigned }
        let params = CashAppRequests.createParams(
            draft, order: order, actions: CashAppAdapter.actions(scopeID: payment.brandID, amount: payment.amount), channel: .IN_APP,
            redirectURL: payment.redirectURL)
        return try await cashApp.create(params, idempotencyKey: ids.idempotencyKey)
    }

    public func update(
        _ attempt: PaymentAttempt, to draft: PaymentAttempt, order: PaymentOrder, ids: AttemptIdentifiers
    ) async throws(ProviderFailure) -> PaymentAttempt {
        guard let payment = signed[ids.number] else { throw Self.notSigned }
        return try await cashApp.update(
            attempt, actions: CashAppAdapter.actions(scopeID: payment.brandID, amount: payment.amount), reference: references[ids.number], metadata: nil)
    }

    public func retrieve(_ attempt: PaymentAttempt, refreshing: Bool) async throws(ProviderFailure) -> PaymentAttempt {
        try await cashApp.retrieve(attempt, refreshing: refreshing)
    }

    /// validating → capturing → completed, or a typed failure: a capture Afterpay declines is a
    /// decline; anything else is an error.
    public func settle(_ attempt: PaymentAttempt, ids: AttemptIdentifiers, step: @escaping StepReporter) async -> SettlementOutcome {
        guard let payment = signed[ids.number] else {
            return .failed(SettlementFailure(declined: false, reason: "there is no signed Afterpay payment to settle"))
        }
        guard let grant = attempt.grants.first, let customerID = attempt.customerID else {
            return .failed(SettlementFailure(declined: false, reason: "the approved request has no grant or customer to validate"))
        }
        await step(Self.validatingStep)
        let validation: AfterpayValidateResponse
        do {
            validation = try await afterpay.validatePayment(AfterpayValidateRequest(jwt: payment.jwt, externalCustomerId: customerID, externalGrantId: grant))
        } catch {
            return .failed(SettlementFailure(declined: false, reason: "validation failed: \(error)"))
        }
        guard validation.status == "SUCCESS" else {
            return .failed(SettlementFailure(
                declined: false,
                reason: "validation answered \(validation.status): \(validation.message ?? "no reason given"); start a new checkout"))
        }
        await step(Self.capturingStep)
        let captured: AfterpayPayment
        do {
            captured = try await afterpay.capture(AfterpayCaptureRequest(token: payment.token, merchantReference: references[ids.number], grantId: grant))
        } catch {
            // An earlier attempt may have captured before its response was lost: ask Afterpay
            // before saying no money moved.
            switch await reconcile(token: payment.token) {
            case .captured(let found): captured = found
            case .notCaptured: return .failed(SettlementFailure(declined: false, reason: "capture failed: \(error)"))
            case .unknown(let lookup):
                return .failed(SettlementFailure(
                    declined: false,
                    reason: "capture failed: \(error); whether money moved is unknown (looking up token \(payment.token) failed: \(lookup)); check it before charging again"))
            }
        }
        guard captured.status == "APPROVED" else {
            return .failed(SettlementFailure(
                declined: captured.status == "DECLINED", reason: "capture \(captured.status): payment \(captured.id) is \(captured.paymentState)"))
        }
        return .completed(SettlementReceipt(paymentID: captured.id, payer: validation.cashAppTag ?? attempt.payer))
    }

    private enum CaptureLookup {
        case captured(AfterpayPayment)
        case notCaptured
        case unknown(AfterpayFailure)
    }

    /// Get Payment By Token after a failed capture: 404 means no payment was made.
    private func reconcile(token: String) async -> CaptureLookup {
        do { return .captured(try await afterpay.payment(token: token)) } catch {
            if case .api(404, _) = error { return .notCaptured }
            return .unknown(error)
        }
    }

    private static let notSigned = ProviderFailure(
        kind: .unexpected, category: "AFTERPAY", code: "NOT_SIGNED", detail: "the attempt has no signed Afterpay payment")
}
