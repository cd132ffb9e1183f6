import Foundation
import ProviderClients
import ProviderWire
import Sandbox
import Testing

/// The wallet sheet's payment token (issue 14) over a real socket: the sandbox stands in for
/// PassKit (`POST /wallet/tokens`), Adyen and Square charge the token, each checking it from the
/// token alone; the decline magic, tampering, expiry, the one amount a token pays, field errors,
/// and that no retry charges twice.
@Suite struct WalletTokenTests {
    typealias Fixture = WalletTestSandbox

    // MARK: - Paying

    @Test func aTokenPaysThroughAdyen() async throws {
        try await Fixture.with { sandbox in
            let issued = try await sandbox.token()
            #expect(issued.token.paymentData.version == "EC_v1")
            #expect(issued.token.paymentMethod == WalletTokenMethod(displayName: "Visa 1234", network: "Visa", type: "credit"))
            #expect(issued.token.transactionIdentifier.lowercased() == issued.token.paymentData.header.transactionId)

            let payment = try await sandbox.payAdyen(issued.token.applePayToken)
            #expect(payment.result == .authorised)
            #expect(payment.pspReference?.count == 16)
            #expect(payment.paymentMethod == AdyenResponsePaymentMethod(type: "applepay", brand: "visa_applepay"))
            #expect(payment.additionalData?["cardSummary"] == "1234")
            #expect(payment.amount == AdyenAmount(currency: "USD", value: 4505))
            let charges = try await sandbox.charges()
            #expect(charges.count == 1)
            #expect(charges.first?["provider"] as? String == "adyen" && charges.first?["amount"] as? Int == 4505)
            #expect(charges.first?["id"] as? String == payment.pspReference)
        }
    }

    @Test(arguments: [("visa", "VISA"), ("mastercard", "MASTERCARD"), ("amex", "AMERICAN_EXPRESS"), ("discover", "DISCOVER"), ("jcb", "JCB")])
    func aTokenPaysThroughSquare(network: String, brand: String) async throws {
        try await Fixture.with { sandbox in
            let issued = try await sandbox.token(network: network, last4: "4242")
            #expect(issued.squareNonce.hasPrefix("cnon:wallet-") && issued.squareNonce.utf8.count <= 192)
            let payment = try await sandbox.paySquare(issued.squareNonce)
            #expect(payment.status == "COMPLETED")
            #expect(payment.cardDetails?.status == "CAPTURED")
            #expect(payment.cardDetails?.card?.cardBrand == brand && payment.cardDetails?.card?.last4 == "4242")
            #expect(payment.cardDetails?.entryMethod == "KEYED")
            #expect(payment.cardDetails?.cvvStatus == "CVV_NOT_CHECKED" && payment.cardDetails?.avsStatus == "AVS_NOT_CHECKED")
            #expect(payment.totalMoney == SquareMoney(amount: 4505, currency: "USD"))
            let charges = try await sandbox.charges()
            #expect(charges.count == 1 && charges.first?["provider"] as? String == "square" && charges.first?["id"] as? String == payment.id)
        }
    }

    @Test func theCardEnding0002IsDeclinedByBoth() async throws {
        try await Fixture.with { sandbox in
            let issued = try await sandbox.token(last4: WalletMagic.declinedLast4)
            let refused = try await sandbox.payAdyen(issued.token.applePayToken)
            #expect(refused.result == .refused)
            #expect(refused.refusalReason == "Refused")

            let failure = await failure(SquareFailure.self) { try await sandbox.paySquare(issued.squareNonce) }
            guard case .api(let status, let body)? = failure else { Issue.record("Square answered \(String(describing: failure))"); return }
            #expect(status == 400)
            #expect(body.errors.first?.code == "GENERIC_DECLINE" && body.errors.first?.category == "PAYMENT_METHOD_ERROR")
            #expect(body.payment?.status == "FAILED" && body.payment?.cardDetails?.card?.last4 == "0002")
            #expect(try await sandbox.charges().isEmpty)
        }
    }

    // MARK: - Refusals

    @Test func aTamperedTokenIsRefused() async throws {
        try await Fixture.with { sandbox in
            let issued = try await sandbox.token(amount: 4505)
            // The customer authorized 45.05; the token is edited to say 4.50, its seal left as it was.
            var paymentData = issued.token.paymentData
            let sealed = try #require(Data(base64Encoded: paymentData.data))
            var payload = try #require(try JSONSerialization.jsonObject(with: sealed) as? [String: Any])
            #expect(payload["amount"] as? Int == 4505)
            payload["amount"] = 450
            paymentData.data = try JSONSerialization.data(withJSONObject: payload).base64EncodedString()
            try expectAdyen(await failure(AdyenFailure.self) { try await sandbox.payAdyen(paymentData.applePayToken, value: 450) }, 422, "5_002")
            // A signature of another token does not seal this one either.
            var resealed = issued.token.paymentData
            resealed.signature = try await sandbox.token(amount: 450).token.paymentData.signature
            try expectAdyen(await failure(AdyenFailure.self) { try await sandbox.payAdyen(resealed.applePayToken) }, 422, "5_002")
            try expectAdyen(await failure(AdyenFailure.self) { try await sandbox.payAdyen("bm90IGEgdG9rZW4=") }, 422, "5_002")

            let forged = issued.squareNonce.replacingOccurrences(of: "-1234-", with: "-9999-")
            let failure = await failure(SquareFailure.self) { try await sandbox.paySquare(forged) }
            guard case .api(404, let body)? = failure else { Issue.record("Square answered \(String(describing: failure))"); return }
            #expect(body.errors.first?.code == "NOT_FOUND" && body.errors.first?.field == "source_id")
            #expect(try await sandbox.charges().isEmpty)
        }
    }

    @Test func aTokenExpiresFiveMinutesAfterIssue() async throws {
        try await Fixture.with { sandbox in
            let early = try await sandbox.token()
            let late = try await sandbox.token()
            sandbox.clock.advance(by: 299)
            #expect(try await sandbox.payAdyen(early.token.applePayToken).result == .authorised)
            sandbox.clock.advance(by: 2)
            let expired = try expectAdyen(await failure(AdyenFailure.self) { try await sandbox.payAdyen(late.token.applePayToken) }, 422, "5_002")
            #expect(expired.message.contains("expired"))
            let failure = await failure(SquareFailure.self) { try await sandbox.paySquare(late.squareNonce) }
            guard case .api(400, let body)? = failure else { Issue.record("Square answered \(String(describing: failure))"); return }
            #expect(body.errors.first?.code == "CARD_TOKEN_EXPIRED" && body.errors.first?.field == "source_id")
            #expect(try await sandbox.charges().count == 1)
        }
    }

    @Test func aTokenPaysItsOwnAmountOnly() async throws {
        try await Fixture.with { sandbox in
            let issued = try await sandbox.token(amount: 4505, currency: "USD")
            let other = try expectAdyen(await failure(AdyenFailure.self) { try await sandbox.payAdyen(issued.token.applePayToken, value: 4500, key: "key-1") }, 422, "5_001")
            #expect(other.message.contains("4505 USD") && other.message.contains("4500 USD"))
            try expectAdyen(await failure(AdyenFailure.self) { try await sandbox.payAdyen(issued.token.applePayToken, currency: "EUR") }, 422, "5_001")
            // A refusal keeps no record: the key pays once the amount is right.
            #expect(try await sandbox.payAdyen(issued.token.applePayToken, value: 4505, key: "key-1").result == .authorised)

            let square = try await sandbox.token(amount: 4505)
            let failure = await failure(SquareFailure.self) { try await sandbox.paySquare(square.squareNonce, amount: 9999) }
            guard case .api(400, let body)? = failure else { Issue.record("Square answered \(String(describing: failure))"); return }
            #expect(body.errors.first?.category == "INVALID_REQUEST_ERROR" && body.errors.first?.field == "amount_money")
            #expect(try await sandbox.charges().count == 1)
        }
    }

    // MARK: - Retries

    @Test func theSameIdempotencyKeyChargesOnce() async throws {
        try await Fixture.with { sandbox in
            let adyenToken = try await sandbox.token()
            let first = try await sandbox.payAdyen(adyenToken.token.applePayToken, key: "adyen-key")
            let again = try await sandbox.payAdyen(adyenToken.token.applePayToken, key: "adyen-key")
            #expect(first == again && first.result == .authorised)

            let squareToken = try await sandbox.token()
            let created = try await sandbox.paySquare(squareToken.squareNonce, key: "square-key")
            let replayed = try await sandbox.paySquare(squareToken.squareNonce, key: "square-key")
            #expect(created.id == replayed.id && replayed.status == "COMPLETED")

            // Long after the tokens expired, a retry with its key is still the same payment.
            sandbox.clock.advance(by: 3_600)
            #expect(try await sandbox.payAdyen(adyenToken.token.applePayToken, key: "adyen-key") == first)
            #expect(try await sandbox.paySquare(squareToken.squareNonce, key: "square-key").id == created.id)

            let charges = try await sandbox.charges()
            #expect(charges.count == 2)
            #expect(Set(charges.compactMap { $0["id"] as? String }) == [first.pspReference, created.id])
        }
    }

    @Test func aTokenPaysOnceWhateverTheKey() async throws {
        try await Fixture.with { sandbox in
            let issued = try await sandbox.token()
            let first = try await sandbox.payAdyen(issued.token.applePayToken, key: "key-1")
            #expect(first.result == .authorised)
            let second = try await sandbox.payAdyen(issued.token.applePayToken, key: "key-2")
            #expect(second.result == .refused)
            #expect(second.refusalReason?.contains("already used (by payment \(first.pspReference ?? ""))") == true)

            _ = try await sandbox.paySquare(issued.squareNonce, key: "key-1")
            let failure = await failure(SquareFailure.self) { try await sandbox.paySquare(issued.squareNonce, key: "key-2") }
            guard case .api(400, let body)? = failure else { Issue.record("Square answered \(String(describing: failure))"); return }
            #expect(body.errors.first?.code == "CARD_TOKEN_USED")
            #expect(try await sandbox.charges().count == 2)
        }
    }

    @Test func askingAgainForTheSameTransactionGivesTheSameToken() async throws {
        try await Fixture.with { sandbox in
            let id = "3f2a6c1e-9b7d-4c1a-8e2f-5d6b7a8c9d0e"
            let first = try await sandbox.tokens.token(Fixture.request(transactionID: id))
            sandbox.clock.advance(by: 30)
            let again = try await sandbox.tokens.token(Fixture.request(transactionID: id.uppercased()))
            #expect(again == first)
            #expect(first.token.transactionIdentifier == id.uppercased())
            #expect(try await sandbox.paySquare(first.squareNonce).status == "COMPLETED")

            let conflict = await failure(WalletTokenFailure.self) { try await sandbox.tokens.token(Fixture.request(amount: 100, transactionID: id)) }
            guard case .api(409, let body)? = conflict else { Issue.record("the sandbox answered \(String(describing: conflict))"); return }
            #expect(body.field == "transactionIdentifier")
        }
    }

    // MARK: - Merchant capabilities

    /// The token carries the request's countryCode and merchantCapabilities; the processors take
    /// 3DSecure tokens only, and a card kind the capabilities leave out when they name one.
    @Test func theMerchantsCapabilitiesTravelInTheTokenAndTheProcessorsCheckThem() async throws {
        try await Fixture.with { sandbox in
            func issue(_ last4: String, _ capabilities: [String]) async throws -> WalletTokenResponse {
                try await sandbox.tokens.token(WalletTokenRequest(
                    merchantIdentifier: Fixture.merchantIdentifier, network: "visa", last4: last4, amount: 4505, currency: "USD", countryCode: "GB",
                    merchantCapabilities: capabilities))
            }
            let debitOnly = ["supports3DS", "supportsDebit"]
            let credit = try await issue("1234", debitOnly)
            #expect(credit.token.paymentMethod.type == "credit")
            let refused = try await sandbox.payAdyen(credit.token.applePayToken)
            #expect(refused.result == .refused && refused.refusalReason == "Not supported", "\(refused)")
            let creditNonce = try await issue("1234", debitOnly).squareNonce
            let squareRefusal = await failure(SquareFailure.self) { try await sandbox.paySquare(creditNonce) }
            guard case .api(400, let body)? = squareRefusal else { Issue.record("Square answered \(String(describing: squareRefusal))"); return }
            #expect(body.errors.first?.code == "CARD_NOT_SUPPORTED" && body.payment?.status == "FAILED", "\(body)")

            let emv = try await issue("1234", ["supportsEMV"])
            #expect(try await sandbox.payAdyen(emv.token.applePayToken).refusalReason == "Not supported")

            let debit = try await issue(WalletMagic.debitLast4, debitOnly)
            #expect(debit.token.paymentMethod.type == "debit")
            #expect(try await sandbox.payAdyen(debit.token.applePayToken).result == .authorised)
            let debitNonce = try await issue(WalletMagic.debitLast4, debitOnly).squareNonce
            #expect(debitNonce.contains("-debit.3DSecure.3DS+Debit-"), "\(debitNonce)")
            #expect(try await sandbox.paySquare(debitNonce).status == "COMPLETED")
        }
    }

    // MARK: - Field checks

    /// Each change to a good request (JSON; null removes the field), the field named, and whether the answer lists what it allows.
    @Test(arguments: [
        (#"{"merchantIdentifier": null}"#, "merchantIdentifier", false),
        (#"{"merchantIdentifier": "com.example"}"#, "merchantIdentifier", false),
        (#"{"network": "diners"}"#, "network", true),
        (#"{"network": "VISA"}"#, "network", true),
        (#"{"network": 4}"#, "network", true),
        (#"{"currency": null}"#, "currency", true),
        (#"{"last4": "123"}"#, "last4", false),
        (#"{"last4": "12a4"}"#, "last4", false),
        (#"{"amount": 0}"#, "amount", false),
        (#"{"amount": 45.05}"#, "amount", false),
        (#"{"amount": "4505"}"#, "amount", false),
        (#"{"amount": null}"#, "amount", false),
        (#"{"currency": "usd"}"#, "currency", true),
        (#"{"currency": "XXX"}"#, "currency", true),
        (#"{"transactionIdentifier": "not hex at all!"}"#, "transactionIdentifier", false),
        (#"{"transactionIdentifier": "abc"}"#, "transactionIdentifier", false),
        (#"{"last_4": "1234"}"#, "last_4", true),
        (#"{"countryCode": "usa"}"#, "countryCode", false),
        (#"{"countryCode": 1}"#, "countryCode", false),
        (#"{"merchantCapabilities": ["supportsCredit"]}"#, "merchantCapabilities", true),
        (#"{"merchantCapabilities": ["supports3DS", "supports3DS"]}"#, "merchantCapabilities", true),
        (#"{"merchantCapabilities": ["3DS"]}"#, "merchantCapabilities", true),
        (#"{"merchantCapabilities": "supports3DS"}"#, "merchantCapabilities", true),
        (#"{"merchantCapabilities": []}"#, "merchantCapabilities", true),
    ])
    func fieldErrorsNameTheField(change: String, field: String, listsAllowed: Bool) async throws {
        try await Fixture.with { sandbox in
            var body: [String: Any] = [
                "merchantIdentifier": Fixture.merchantIdentifier, "network": "visa", "last4": "1234", "amount": 4505, "currency": "USD",
            ]
            for (key, value) in try #require(try JSONSerialization.jsonObject(with: Data(change.utf8)) as? [String: Any]) {
                body[key] = value is NSNull ? nil : value
            }
            let json = String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self)
            let (status, answer) = try await sandbox.issueRaw(json)
            #expect(status == 400)
            #expect(answer["field"] as? String == field, "\(answer)")
            #expect((answer["error"] as? String)?.isEmpty == false)
            #expect((answer["allowed"] != nil) == listsAllowed, "\(answer)")
            if field == "network" { #expect(answer["allowed"] as? [String] == ["amex", "discover", "jcb", "maestro", "mastercard", "visa"]) }
        }
    }

    @Test func aBodyThatIsNotAnObjectIsRefused() async throws {
        try await Fixture.with { sandbox in
            for json in ["[]", "not json", #""text""#] {
                let (status, answer) = try await sandbox.issueRaw(json)
                #expect(status == 400 && (answer["error"] as? String)?.contains("JSON object") == true, "\(json): \(answer)")
            }
        }
    }

    // MARK: - Helpers

    /// The error `call` fails with, as the client's own failure type; nil when it succeeds.
    private func failure<T, Failure: Error>(_ type: Failure.Type, _ call: () async throws -> T) async -> Failure? {
        do {
            _ = try await call()
            return nil
        } catch {
            return error as? Failure
        }
    }

    /// An Adyen validation error with this status and code: its body.
    @discardableResult
    private func expectAdyen(_ failure: AdyenFailure?, _ status: Int, _ code: String, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> AdyenServiceError
    {
        guard case .api(let got, let error)? = failure else {
            Issue.record("Adyen answered \(String(describing: failure))", sourceLocation: sourceLocation)
            throw CancellationError()
        }
        #expect(got == status && error.errorCode == code && error.errorType == "validation", "\(error)", sourceLocation: sourceLocation)
        return error
    }
}
