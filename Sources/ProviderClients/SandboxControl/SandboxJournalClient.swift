import Foundation
import ProviderWire

/// Reads a sandbox's request journal (`GET /sandbox/journal`): what `checkout journal` lists and
/// follows. Never retried: a follower asks again on its own schedule.
public struct SandboxJournalClient: Sendable {
    public let baseURL: String
    public let http: ProviderHTTPClient

    public init(baseURL: String, http: ProviderHTTPClient) {
        self.baseURL = baseURL
        self.http = http
    }

    /// One page of the journal, as `query` asks.
    public func page(_ query: SandboxJournalQuery) async throws(SandboxControlFailure) -> SandboxJournalPage {
        let queryString = query.queryString
        let url = baseURL + "/sandbox/journal" + (queryString.isEmpty ? "" : "?" + queryString)
        return try await http.jsonCall(
            "GET", url: url, headers: [(name: "Accept", value: "application/json")], body: nil as String?,
            provider: SandboxControlClient.provider, policy: .never, shouldRetry: { _ in false }
        ) { (response) throws(SandboxControlFailure) -> SandboxJournalPage in
            guard response.isSuccess else {
                if let body = try? JSONDecoder().decode(SandboxControlErrorBody.self, from: response.body) {
                    throw .api(status: response.status, body: body)
                }
                throw .undecodable(status: response.status, detail: String(decoding: response.body.prefix(200), as: UTF8.self))
            }
            do { return try WireJSON.decoder().decode(SandboxJournalPage.self, from: response.body) } catch {
                throw .undecodable(status: response.status, detail: "\(error)")
            }
        }
    }
}
