import ProviderClients

extension CashAppOptions {
    /// Retrieves a customer request by a made-up id: a 404 means the client id got past
    /// Cash App's authentication, a 401 that it did not. Nothing is created.
    static let credentialProbe = CredentialProbe(call: "GET \(CashAppConfiguration.requestsPath)/GRR_credential_check (looks up a made-up request)") { connection in
        let client = CustomerRequestClient(configuration: configuration(connection.options, sandboxURL: connection.sandboxURL), http: connection.http)
        do throws(CustomerRequestFailure) {
            _ = try await client.retrieve(id: "GRR_credential_check", retryPolicy: .standard.withMaxAttempts(1))
            return .accepted("it answered the lookup")
        } catch {
            return .judging(status: connection.http.lastStatus, detail: error.description, notFoundMeansAccepted: true)
        }
    }
}
