import Foundation
@testable import ProviderClients
import ProviderWire
import Synchronization
import Testing
import TestSupport

/// The one call helper: where each hook's headers go, how an error answer is read and
/// completed, and how each provider's failure reads.
@Suite struct ProviderCallTests {
    private typealias Failure = ProviderCallFailure<SandboxControlErrorBody>

    @Test func headersGoInOrderAndEveryAttemptIsSignedAnew() async throws {
        let log = ExchangeLog()
        let http = ProviderHTTPClient(log: log, retryPolicy: RetryPolicy(maxAttempts: 2, baseDelay: .zero))
        let signatures = Signatures()
        let outcome: Failure? = await failure { () throws(Failure) in
            let _: Int = try await http.jsonCall(
                "POST", url: "http://127.0.0.1:1/x", headers: [(name: "Accept", value: "application/json")], body: ["b": "/", "a": "1"],
                extraHeaders: [(name: "Idempotency-Key", value: "k")], provider: "test",
                sign: { (request: inout ProviderRequest) throws(Failure) in request.headers.append((name: "Signature", value: signatures.next())) },
                shouldRetry: { _ in true }
            ) { (_: ProviderResponse) throws(Failure) -> Int in 0 }
        }
        guard case .transport? = outcome else { Issue.record("expected no answer, got \(String(describing: outcome))"); return }
        #expect(log.entries.map { $0.requestHeaders.map(\.name) } == Array(
            repeating: ["Accept", "Content-Type", "Idempotency-Key", "Signature", "User-Agent"], count: 2))
        #expect(log.entries.map { $0.requestHeaders.first { $0.name == "Signature" }?.value } == ["1", "2"])
        #expect(log.entries.first?.requestBody == #"{"a":"1","b":"/"}"#)
    }

    @Test func adyensErrorTakesItsReferenceFromTheHeaderWhenTheBodyHasNone() {
        let body = Data(#"{"status":422,"errorCode":"14_030","message":"Return URL is missing.","errorType":"validation"}"#.utf8)
        let response = ProviderResponse(status: 422, headers: [(name: "pspReference", value: "PSP1")], body: body)
        do throws(AdyenFailure) {
            let _: AdyenPaymentResponse = try AdyenClient.decode(response)
            Issue.record("an error answer was read as a payment")
        } catch {
            guard case .api(422, let answer) = error else { Issue.record("got \(error)"); return }
            #expect(answer.pspReference == "PSP1")
            #expect(error.description == "HTTP 422 14_030 (validation): Return URL is missing.")
        }
    }

    @Test func eachProvidersFailureReadsAsItAlwaysDid() {
        let afterpay = AfterpayFailure.api(
            status: 400, body: AfterpayError(errorCode: "invalid_object", errorId: "x", message: "bad", httpStatusCode: 400))
        #expect(afterpay.description == "HTTP 400 invalid_object: bad")
        let cashApp = CustomerRequestFailure.api(
            status: 400, body: CashAppErrorBody(errors: [CashAppErrorDetail(category: "INVALID_REQUEST_ERROR", code: "MISSING", detail: "d")]))
        #expect(cashApp.description == "HTTP 400: INVALID_REQUEST_ERROR MISSING: d")
        #expect(CustomerRequestFailure.api(status: 500, body: CashAppErrorBody(errors: [])).description == "HTTP 500: no error details")
        #expect(CustomerRequestFailure.undecodable(status: 200, detail: "x").description == "HTTP 200 with a body that is not valid JSON for this API (x)")
        #expect(SquareFailure.undecodable(status: 200, detail: "x").description == "HTTP 200 with a body that is not the expected JSON (x)")
        #expect(Failure.emptyBody(status: 502).description == "HTTP 502 with an empty body")
    }

    @Test func theSandboxControlAPIsRefusalsAreItsOwn() {
        let refusal = ProviderResponse(status: 409, headers: [], body: Data(#"{"errors":[{"category":"SANDBOX","code":"DECIDED"}]}"#.utf8))
        #expect(Failure.strict(refusal) == .api(status: 409, body: SandboxControlErrorBody(errors: [.init(category: "SANDBOX", code: "DECIDED")])))
        #expect(Failure.strict(ProviderResponse(status: 404, headers: [], body: Data())) == .emptyBody(status: 404))
        guard case .undecodable(502, let detail) = Failure.strict(ProviderResponse(status: 502, headers: [], body: Data("<html>".utf8))) else {
            Issue.record("a page that is not JSON was read as an answer"); return
        }
        #expect(!detail.isEmpty)
    }

    @Test func onlyMissingAnswersAndOutagesAreWorthAskingAgain() {
        let outage = SquareFailure.api(status: 503, body: SquareErrorBody(errors: []))
        #expect(!outage.isRetryable && outage.isOutage && SquareClient.isRetryable(outage))
        #expect(!AfterpayFailure.api(status: 503, body: AfterpayError(errorCode: "x", errorId: "x", message: "x", httpStatusCode: 503)).isRetryable)
        #expect(CustomerRequestFailure.emptyBody(status: 200).isRetryable && !CustomerRequestFailure.emptyBody(status: 404).isRetryable)
        #expect(!AdyenFailure.transport(.cancelled).isRetryable && AdyenClient.isRetryable(.transport(.connectionLost("reset"))))
    }
}

/// Hands out "1", "2", … to the signing hook.
private final class Signatures: Sendable {
    private let count = Mutex(0)
    func next() -> String { count.withLock { $0 += 1; return String($0) } }
}
