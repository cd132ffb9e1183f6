import Foundation
import Hummingbird
import ProviderWire

/// `GET /sandbox/antom/keys`: the sandbox's public key (what answers and notifications verify
/// with), the ready test client with its key pair, and the paths. `POST /sandbox/antom/clients
/// {"client_id", "public_key"}` registers another client (PEM or bare base64). Errors use the
/// sandbox's own error list, as its other control routes do.
struct AntomKeyRoutes: Sendable {
    let clients: AntomClients
    let limits: SandboxLimits

    struct Keys: Encodable {
        let sandboxPublicKey: String
        let testClient: TestClient
        let paths: Paths
        let clients: [String]

        struct TestClient: Encodable {
            let clientID, privateKey, publicKey: String
            enum CodingKeys: String, CodingKey {
                case clientID = "client_id"
                case privateKey = "private_key"
                case publicKey = "public_key"
            }
        }

        struct Paths: Encodable {
            let createPaymentSession, inquiryPayment, sandboxPrefix, prefix, cashier, clients: String
            enum CodingKeys: String, CodingKey {
                case createPaymentSession = "create_payment_session"
                case inquiryPayment = "inquiry_payment"
                case sandboxPrefix = "sandbox_prefix"
                case prefix, cashier, clients
            }
        }

        enum CodingKeys: String, CodingKey {
            case paths, clients
            case sandboxPublicKey = "sandbox_public_key"
            case testClient = "test_client"
        }
    }

    struct Registered: Encodable {
        let clientID: String
        let publicKey: String
        /// Where this client's API calls go.
        let prefix: String
        enum CodingKeys: String, CodingKey {
            case prefix
            case clientID = "client_id"
            case publicKey = "public_key"
        }
    }

    private struct Registration: Decodable {
        let clientID: String?
        let publicKey: String?
        enum CodingKeys: String, CodingKey {
            case clientID = "client_id"
            case publicKey = "public_key"
        }
    }

    func register(on router: some RouterMethods<SandboxRequestContext>) {
        router.get("sandbox/antom/keys") { _, _ in
            let ids = try await clients.ids
            return SandboxResponse.json(Keys(
                sandboxPublicKey: AntomSandboxCredentials.sandboxPublicKey,
                testClient: .init(
                    clientID: AntomSandboxCredentials.clientID, privateKey: AntomSandboxCredentials.clientPrivateKey,
                    publicKey: AntomSandboxCredentials.clientPublicKey),
                paths: .init(
                    createPaymentSession: AntomPaths.path(AntomPaths.createPaymentSession, clientID: AntomSandboxCredentials.clientID),
                    inquiryPayment: AntomPaths.path(AntomPaths.inquiryPayment, clientID: AntomSandboxCredentials.clientID),
                    sandboxPrefix: "/ams/sandbox/api (client ids starting SANDBOX_)", prefix: "/ams/api (other client ids; they may use either)",
                    cashier: "/sandbox/antom/cashier/{paymentSessionId}", clients: "/sandbox/antom/clients"),
                clients: ids))
        }
        router.post("sandbox/antom/clients") { request, _ in try await add(request) }
    }

    private func add(_ request: Request) async throws -> Response {
        let data: Data
        do { data = try await request.readBody(limit: limits.maxBodyBytes) } catch {
            return SandboxError(.contentTooLarge, "VALUE_TOO_LONG", "The request body is too large.").response
        }
        guard let body = try? JSONDecoder().decode(Registration.self, from: data) else {
            return SandboxError(
                .badRequest, "INVALID_JSON", #"The body must be JSON {"client_id": "…", "public_key": "<PEM or base64>"}."#).response
        }
        guard let clientID = body.clientID else {
            return SandboxError(.badRequest, "MISSING_REQUIRED_PARAMETER", "client_id is required.", field: "client_id").response
        }
        guard let publicKey = body.publicKey else {
            return SandboxError(.badRequest, "MISSING_REQUIRED_PARAMETER", "public_key is required.", field: "public_key").response
        }
        do {
            let client = try await clients.register(id: clientID, publicKey: publicKey)
            return SandboxResponse.json(
                Registered(clientID: client.id, publicKey: client.publicKey.derRepresentation.base64EncodedString(), prefix: AntomPaths.prefix(clientID: client.id)),
                status: .created)
        } catch let refusal as AntomClients.Refusal {
            switch refusal {
            case .invalid(let field, let message):
                return SandboxError(.badRequest, "INVALID_VALUE", message, field: field).response
            case .builtIn:
                return SandboxError(
                    .conflict, "CLIENT_EXISTS", "\(clientID) is the built-in test client; register another id.", field: "client_id").response
            }
        }
    }
}
