import ProviderClients

extension SquareOptions {
    /// Lists at most one payment: it needs a valid access token, and changes nothing.
    static let credentialProbe = CredentialProbe(call: "GET /v2/payments?sort_order=DESC&limit=1 (lists at most one payment)") { connection in
        let client = SquareClient(configuration: configuration(connection.options, sandboxURL: connection.sandboxURL), http: connection.http)
        do throws(SquareFailure) {
            _ = try await client.listPayments(beginTime: nil, limit: 1)
            return .accepted("it listed payments with the token")
        } catch {
            return .judging(status: connection.http.lastStatus, detail: error.description)
        }
    }
}
