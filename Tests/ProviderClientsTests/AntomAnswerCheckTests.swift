import Foundation
@testable import ProviderClients
import ProviderWire
import Testing
import _CryptoExtras

/// The client's side of Antom's signatures: an answer is read only when its signature verifies
/// over the exact bytes that arrived; a tampered body, another key or a missing signature is
/// rejected and not acted on (Antom's own unsigned F/U failures aside, which change nothing).
@Suite struct AntomAnswerCheckTests {
    static let sandboxKey = try! AntomSignature.privateKey(AntomSandboxCredentials.sandboxPrivateKey)
    static let client = AntomClient(configuration: .sandbox(baseURL: "http://127.0.0.1:1"), http: ProviderHTTPClient())
    static let path = "/ams/sandbox/api/v1/payments/inquiryPayment"
    static let body = Data(#"{"result":{"resultCode":"SUCCESS","resultStatus":"S","resultMessage":"success"},"paymentStatus":"SUCCESS","paymentRequestId":"r-1"}"#.utf8)

    private func signed(_ body: Data, key: _RSA.Signing.PrivateKey = sandboxKey, time: String = "2026-11-23T10:00:00+00:00", tamper: Bool = false) throws -> ProviderResponse {
        let content = AntomSignature.content(method: "POST", path: Self.path, clientID: AntomSandboxCredentials.clientID, time: time, body: body)
        let signature = try AntomSignature.sign(content, with: key)
        var sent = body
        if tamper { sent = Data(String(decoding: body, as: UTF8.self).replacingOccurrences(of: "\"SUCCESS\",\"paymentRequestId", with: "\"FAIL\",\"paymentRequestId").utf8) }
        return ProviderResponse(
            status: 200,
            headers: [("client-id", AntomSandboxCredentials.clientID), ("response-time", time), ("signature", AntomSignature.header(signature: signature))],
            body: sent)
    }

    @Test func aSignedAnswerIsRead() throws {
        let answer: AntomInquiryPaymentResponse = try Self.client.read(try signed(Self.body), path: Self.path)
        #expect(answer.status == .success)
    }

    @Test func aTamperedBodyIsRejected() throws {
        #expect(throws: AntomFailure.self) {
            let _: AntomInquiryPaymentResponse = try Self.client.read(try signed(Self.body, tamper: true), path: Self.path)
        }
        do {
            let _: AntomInquiryPaymentResponse = try Self.client.read(try signed(Self.body, tamper: true), path: Self.path)
        } catch let failure as AntomFailure {
            guard case .unverified = failure else { Issue.record("\(failure)"); return }
        }
    }

    @Test func anAnswerSignedWithAnotherKeyIsRejected() throws {
        let stranger = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        #expect(throws: AntomFailure.self) {
            let _: AntomInquiryPaymentResponse = try Self.client.read(try signed(Self.body, key: stranger), path: Self.path)
        }
    }

    @Test func anUnsignedSuccessIsRejectedButAnUnsignedFailureIsReadAsTheFailure() throws {
        let unsigned = ProviderResponse(status: 200, headers: [], body: Self.body)
        do {
            let _: AntomInquiryPaymentResponse = try Self.client.read(unsigned, path: Self.path)
            Issue.record("an unsigned success was read")
        } catch {
            guard case .unverified = error else { Issue.record("\(error)"); return }
        }
        let failure = Data(#"{"result":{"resultCode":"INVALID_SIGNATURE","resultStatus":"F","resultMessage":"bad"}}"#.utf8)
        do {
            let _: AntomInquiryPaymentResponse = try Self.client.read(ProviderResponse(status: 200, headers: [], body: failure), path: Self.path)
            Issue.record("an unsigned failure was read as an answer")
        } catch {
            guard case .result(let result) = error else { Issue.record("\(error)"); return }
            #expect(result.resultCode == "INVALID_SIGNATURE")
        }
    }

    @Test func anythingButHTTP200IsAnError() {
        #expect(throws: AntomFailure.self) {
            let _: AntomInquiryPaymentResponse = try Self.client.read(ProviderResponse(status: 502, headers: [], body: Data()), path: Self.path)
        }
    }
}
