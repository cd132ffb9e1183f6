import Foundation
import ProviderClients
import Testing
import TestSupport

@testable import Sandbox

/// The control token's one look at the store: a customer's Approve or Decline button passes
/// without the token when it carries its request's `t=`, which the middleware checks against the
/// stored request. With the store away that check fails: the answer is 503 in the sandbox's own
/// error list (the store failed), not 401 (the token was not what failed) and not a crash; the
/// token is still asked of every other control route, and the health check still answers.
@Suite struct ControlTokenStoreTests {
    private static let token = "team-sandbox-token-0123456789abcdef"

    private static func send(_ sandbox: RunningSandbox, _ method: String, _ path: String) async throws -> ProviderResponse {
        try await ProviderHTTPClient(timeout: .seconds(30), retryPolicy: .never).send(
            ProviderRequest(method: method, url: sandbox.baseURL + path, headers: [], body: nil), provider: "test")
    }

    @Test(arguments: ["approve", "decline"])
    func aLinkCheckTheStoreCannotAnswerIs503NotA401(action: String) async throws {
        var settings = SandboxSettings()
        settings.storage = FailingStorage(failing: "cashapp.requests")
        settings.controlToken = SandboxControlToken(Self.token)
        try await SandboxServer.withRunning(settings) { sandbox in
            let response = try await Self.send(sandbox, "POST", "/sandbox/customer-requests/GRR_0123456789abcdef/\(action)?t=1-0123456789abcdef")
            let text = String(decoding: response.body, as: UTF8.self)
            #expect(response.status == 503, "POST …/\(action) with its link's t=, the store away: \(response.status) \(text)")
            let body = try JSONSerialization.jsonObject(with: response.body) as? [String: Any] ?? [:]
            let error = (body["errors"] as? [[String: Any]])?.first
            #expect(error?["code"] as? String == "SERVICE_UNAVAILABLE", "not the sandbox's error list: \(text)")
            #expect(!text.contains(Self.token))
            // Without a link's token it is a control route as any other: 401, no store asked.
            #expect(try await Self.send(sandbox, "POST", "/sandbox/customer-requests/GRR_0123456789abcdef/\(action)").status == 401)
            #expect(try await Self.send(sandbox, "GET", "/sandbox/health").status == 200)
        }
    }
}
