import ProviderClients
import ProviderWire

extension AntomOptions {
    /// Inquires about a made-up payment, signed with the private key: ORDER_NOT_EXIST in a
    /// signed answer we verified means the client id, both keys and the signature all hold.
    static let credentialProbe = CredentialProbe(call: "POST /v1/payments/inquiryPayment (asks about a made-up payment)") { connection in
        let client = AntomClient(configuration: configuration(connection.options, sandboxURL: connection.sandboxURL), http: connection.http)
        do throws(AntomFailure) {
            _ = try await client.inquiryPayment(AntomInquiryPaymentRequest(paymentRequestId: "credential-check"))
            return .accepted("it answered the inquiry, signed")
        } catch .result(let result) where ["ORDER_NOT_EXIST", "ORDER_NOT_EXISTS"].contains(result.resultCode) {
            return .accepted("it answered ORDER_NOT_EXIST for a made-up payment, signed and verified: the keys hold")
        } catch .result(let result) where ["INVALID_SIGNATURE", "KEY_NOT_FOUND", "INVALID_CLIENT", "ACCESS_DENIED", "INVALID_ACCESS_TOKEN"].contains(result.resultCode) {
            return .rejected("\(result.resultCode): \(result.resultMessage ?? "")")
        } catch .unverified(_, let detail) {
            return .rejected("its answer's signature did not verify with the public key: \(detail)")
        } catch {
            return .judging(status: connection.http.lastStatus, detail: error.description)
        }
    }
}
