import Foundation
import ProviderClients

extension AdyenOptions {
    /// Asks for the merchant account's payment methods: it needs a valid API key and merchant
    /// account, and changes nothing.
    static let credentialProbe = CredentialProbe(call: "POST /paymentMethods (lists the account's payment methods)") { connection in
        let client = AdyenClient(configuration: configuration(connection.options, sandboxURL: connection.sandboxURL), http: connection.http)
        do throws(AdyenFailure) {
            let answer = try await client.paymentMethods(amount: nil, idempotencyKey: UUID().uuidString)
            let count = answer.paymentMethods?.count ?? 0
            return .accepted("it listed \(count) payment method\(count == 1 ? "" : "s") for the merchant account")
        } catch {
            return .judging(status: connection.http.lastStatus, detail: error.description)
        }
    }
}
