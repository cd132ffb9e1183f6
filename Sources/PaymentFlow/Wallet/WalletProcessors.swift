import CheckoutModel
import ProviderClients
import ProviderWire

/// Adyen charges the token as `paymentMethod {type: "applepay", applePayToken}`.
struct AdyenWalletProcessor: WalletProcessor {
    let client: AdyenClient
    var name: String { "Adyen" }

    func charge(_ charge: WalletCharge) async throws(ProviderFailure) -> WalletChargeResult {
        let request = AdyenApplePayPaymentRequest(
            amount: AdyenAmount(currency: charge.amount.currency.code, value: charge.amount.minorUnits), merchantAccount: client.configuration.merchantAccount,
            paymentMethod: AdyenApplePayDetails(applePayToken: charge.token.token.applePayToken), reference: charge.reference,
            returnUrl: "terminalcheckout://wallet", shopperReference: nil)
        let response: AdyenPaymentResponse
        do { response = try await client.payWithApplePay(request, idempotencyKey: charge.idempotencyKey) } catch {
            // Retries ran out on a failure after which the charge may have happened: Adyen replays
            // the answer for the same key, so one more round learns what happened.
            guard AdyenClient.isRetryable(error) else { throw ProviderFailure(error) }
            do { response = try await client.payWithApplePay(request, idempotencyKey: charge.idempotencyKey) } catch { throw ProviderFailure(error) }
        }
        var details = ["result_code": response.resultCode ?? ""]
        if let psp = response.pspReference { details["psp_reference"] = psp }
        if let brand = response.paymentMethod?.brand { details["brand"] = brand }
        switch response.resultCode {
        case AdyenResultCode.authorised.rawValue?:
            return WalletChargeResult(approved: true, paymentID: response.pspReference, details: details)
        case AdyenResultCode.refused.rawValue?, AdyenResultCode.cancelled.rawValue?:
            if let reason = response.refusalReason { details["refusal_reason"] = reason }
            return WalletChargeResult(approved: false, paymentID: response.pspReference, declineReason: response.refusalReason ?? response.resultCode, details: details)
        default:
            throw ProviderFailure(
                kind: .unexpected, category: "ADYEN_RESULT", code: response.resultCode ?? "NO_RESULT_CODE",
                detail: "an Apple Pay payment is Authorised or Refused at once; Adyen answered \(response.resultCode ?? "no resultCode")")
        }
    }
}

/// Square charges the token's nonce (and the card form's keyed nonce) as `source_id`.
struct SquareWalletProcessor: WalletProcessor, WalletKeyedProcessor {
    let client: SquareClient
    var name: String { "Square" }

    func charge(_ charge: WalletCharge) async throws(ProviderFailure) -> WalletChargeResult {
        try await self.charge(nonce: charge.token.squareNonce, amount: charge.amount, reference: charge.reference, idempotencyKey: charge.idempotencyKey)
    }

    func charge(nonce: String, amount: Money, reference: String, idempotencyKey: String) async throws(ProviderFailure) -> WalletChargeResult {
        let request = SquareCreatePaymentRequest(
            sourceID: nonce, idempotencyKey: idempotencyKey, amountMoney: SquareMoney(amount: amount.minorUnits, currency: amount.currency.code),
            autocomplete: true, referenceID: reference, locationID: client.configuration.locationID)
        do {
            let payment = try await createPayment(request)
            var details = ["status": payment.status]
            if let card = payment.cardDetails?.card { details["card"] = "\(card.cardBrand ?? "") \(card.last4 ?? "")" }
            let approved = payment.status == "COMPLETED" || payment.status == "APPROVED"
            return WalletChargeResult(approved: approved, paymentID: payment.id, declineReason: approved ? nil : payment.status, details: details)
        } catch {
            guard let decline = error.decline else { throw ProviderFailure(error) }
            return WalletChargeResult(approved: false, paymentID: decline.payment?.id, declineReason: decline.code, details: ["error_code": decline.code])
        }
    }

    /// CreatePayment, asked one more round with the same key when retries ran out on a failure
    /// after which the payment may exist: Square answers a repeated key with the payment it made.
    private func createPayment(_ request: SquareCreatePaymentRequest) async throws(SquareFailure) -> SquarePayment {
        do { return try await client.createPayment(request) } catch {
            guard SquareClient.isRetryable(error) else { throw error }
            return try await client.createPayment(request)
        }
    }
}

/// The token comes from the sandbox standing in for PassKit.
struct SandboxWalletTokens: WalletTokenSource {
    let client: WalletTokenClient?

    func token(_ request: WalletTokenRequest) async throws(ProviderFailure) -> WalletTokenResponse {
        guard let client else {
            throw ProviderFailure(
                kind: .integration, category: "WALLET", code: "NO_TOKEN_ISSUER",
                detail: "wallet tokens come from the sandbox (a real Apple Pay token needs an Apple device); run with the embedded sandbox or --sandbox-url")
        }
        do { return try await client.token(request) } catch {
            throw ProviderFailure(kind: .api, category: "WALLET", code: "TOKEN_NOT_ISSUED", detail: error.description)
        }
    }
}

/// Rates from the sandbox's `/rates` or a `--rates-url` backend, as the sheet reads them.
struct HTTPWalletRates: WalletRatesSource {
    let client: WalletRatesClient?

    var isConfigured: Bool { client != nil }

    func rates(for address: ShippingAddress, weightGrams: Int, currency: Currency) async -> WalletSheet.RatesOutcome {
        guard let client else { return .failed("no rates service: give --rates-url or use the sandbox") }
        do {
            let rates = try await client.rates(
                street: address.street, city: address.city, state: address.state, zip: address.zip, country: address.country,
                weightGrams: weightGrams > 0 ? weightGrams : nil, currency: currency == .usd ? nil : currency.code)
            return .rates(try WalletShippingOption.fromRates(rates, currency: currency))
        } catch let problem as WalletRatesProblem {
            return .failed(problem.description)
        } catch {
            return .failed(String(describing: error))
        }
    }
}

/// The wallet's services over HTTP: the processor the options chose, Square for the card form.
public enum WalletHTTPServices {
    public static func make(
        settings: WalletSettings, http: ProviderHTTPClient, sandboxURL: String?, ratesEndpoint: String?, adyen: AdyenConfiguration,
        square: SquareConfiguration
    ) -> WalletServices {
        let squareProcessor = SquareWalletProcessor(client: SquareClient(configuration: square, http: http))
        let processor: any WalletProcessor = switch settings.processor {
        case .adyen: AdyenWalletProcessor(client: AdyenClient(configuration: adyen, http: http))
        case .square: squareProcessor
        }
        return WalletServices(
            rates: HTTPWalletRates(client: ratesEndpoint.map { WalletRatesClient(endpoint: $0, http: http) }),
            tokens: SandboxWalletTokens(client: sandboxURL.map { WalletTokenClient(baseURL: $0, http: http) }),
            processor: processor, keyed: squareProcessor)
    }
}
