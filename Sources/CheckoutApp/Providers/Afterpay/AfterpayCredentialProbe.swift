import ProviderClients

extension AfterpayOptions {
    /// Looks up a payment by a made-up token: a 404 means the merchant id and secret key got
    /// past Afterpay's Basic authentication, a 401 that they did not. Nothing is created.
    static let credentialProbe = CredentialProbe(call: "GET /v2/payments/token:credential-check (looks up a made-up token)") { connection in
        let client = AfterpayClient(configuration: configuration(connection.options, sandboxURL: connection.sandboxURL), http: connection.http)
        do throws(AfterpayFailure) {
            _ = try await client.payment(token: "credential-check")
            return .accepted("it answered the lookup")
        } catch {
            return .judging(status: connection.http.lastStatus, detail: error.description, notFoundMeansAccepted: true)
        }
    }
}
