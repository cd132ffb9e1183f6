import Foundation
import Hummingbird
import ProviderWire

/// What every Antom route shares (the sessions, the clients, the settings, the signer and the
/// notifier), and the Payments API itself: createPaymentSession and inquiryPayment under
/// `/ams/api` and `/ams/sandbox/api`, each request authenticated by its client id and RSA
/// signature over the raw body, each answer HTTP 200 with a `result`, signed.
struct AntomAPI: Sendable {
    let store: AntomSessionStore
    let clients: AntomClients
    let settings: SandboxSettings
    let signer: AntomSigner
    let notifier: AntomNotifier

    static let prefixes = ["ams/api", "ams/sandbox/api"]
    static let maxSignatureHeaderLength = 4_096
    static let maxRequestTimeLength = 64

    var now: Date { settings.now() }
    var limits: SandboxLimits { settings.limits }

    func register(on router: some RouterMethods<SandboxRequestContext>) {
        for prefix in Self.prefixes {
            router.post("\(prefix)\(AntomPaths.createPaymentSession)") { request, _ in
                try await answer(request, endpoint: AntomPaths.createPaymentSession) { client, body throws in
                    try await AntomCreatePaymentSession(api: self).create(client: client, body: body, request: request)
                }
            }
            router.post("\(prefix)\(AntomPaths.inquiryPayment)") { request, _ in
                try await answer(request, endpoint: AntomPaths.inquiryPayment) { client, body throws in
                    try await inquire(client: client, body: body)
                }
            }
        }
    }

    // MARK: - Authentication and answers

    /// Reads the body, authenticates it, runs `handler`, and signs whatever it answers.
    func answer(
        _ request: Request, endpoint: String,
        _ handler: (AntomClients.Client, Data) async throws -> any Encodable & Sendable
    ) async throws -> Response {
        signer.readKeyAhead()
        let path = request.uri.path
        let clientID = request.headers.value(AntomJSON.clientIDHeader)
        let body: Data
        do { body = try await request.readBody(limit: limits.maxBodyBytes) } catch let error as BodyTooLarge {
            let rejection = AntomRejection("PARAM_ILLEGAL", "The \(error).", status: .contentTooLarge)
            return signer.response(AntomResultOnly(result: rejection.result), path: path, clientID: clientID, status: rejection.status)
        } catch {
            return signer.response(AntomResultOnly(result: AntomRejection.illegal("The request body could not be read.").result), path: path, clientID: clientID)
        }
        do {
            // One transaction: the session, its client's state and its notices together.
            return try await settings.storage.atomically {
                let client = try await authenticate(request, endpoint: endpoint, body: body)
                return signer.response(try await handler(client, body), path: path, clientID: client.id)
            }
        } catch let rejection as AntomRejection {
            return signer.response(AntomResultOnly(result: rejection.result), path: path, clientID: clientID, status: rejection.status)
        }
    }

    /// The client id names a known client, a `SANDBOX_` one on `/ams/sandbox/api`, and the
    /// `signature` verifies with its key over `"POST <path>\n<client-id>.<request-time>.<raw body>"`.
    func authenticate(_ request: Request, endpoint: String, body: Data) async throws -> AntomClients.Client {
        let path = request.uri.path
        guard let clientID = request.headers.value(AntomJSON.clientIDHeader), !clientID.isEmpty else {
            throw AntomRejection.accessDenied("The client-id header is missing.")
        }
        guard AntomClients.isValidID(clientID) else {
            throw AntomRejection("KEY_NOT_FOUND", "The client-id header is not a client id (1–64 characters of A–Z, a–z, 0–9, _ and -).")
        }
        guard let client = try await clients.client(clientID) else {
            throw AntomRejection("KEY_NOT_FOUND", "No public key is registered for client-id \(clientID): use \(clients.builtIn.id) (GET /sandbox/antom/keys) or register "
                    + "one at POST /sandbox/antom/clients.")
        }
        if clientID.hasPrefix("SANDBOX_"), !path.hasPrefix("/ams/sandbox/api/") {
            throw AntomRejection.accessDenied(
                "\(clientID) is a sandbox client id: SANDBOX_ ids call /ams/sandbox/api, here \(AntomPaths.path(endpoint, clientID: clientID)).")
        }
        guard let time = request.headers.value(AntomJSON.requestTimeHeader), !time.isEmpty, time.utf8.count <= Self.maxRequestTimeLength else {
            throw AntomRejection.invalidSignature("The request-time header is missing (or longer than \(Self.maxRequestTimeLength)); it is part of what is signed.")
        }
        guard let header = request.headers.value(AntomJSON.signatureHeader), header.utf8.count <= Self.maxSignatureHeaderLength,
            let signature = AntomSignature.signatureValue(ofHeader: header)
        else {
            throw AntomRejection.invalidSignature("The signature header is missing or is not algorithm=RSA256,keyVersion=1,signature=<url-encoded base64>.")
        }
        let content = AntomSignature.content(method: "POST", path: path, clientID: clientID, time: time, body: body)
        guard AntomSignature.verify(signature, of: content, with: client.publicKey) else {
            throw AntomRejection.invalidSignature(
                "The signature does not verify with \(clientID)'s public key over \"POST \(path)\\n\(clientID).<request-time>.<body>\" "
                    + "(RSA-SHA256 over the raw body bytes).")
        }
        return client
    }

    /// The sandbox's origin as the client reached it, for the links it hands out (a silly Host falls back).
    static func base(_ request: Request) -> String {
        let authority = request.head.authority ?? ""
        let sane = (1...255).contains(authority.utf8.count)
            && authority.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || ".-:[]".unicodeScalars.contains($0)) }
        return sane ? "http://\(authority)" : "http://127.0.0.1"
    }

    // MARK: - inquiryPayment

    /// By paymentId when given (it wins), else by paymentRequestId; the client's own payments only.
    func inquire(client: AntomClients.Client, body: Data) async throws -> AntomInquiryPaymentResponse {
        let fields = try AntomFields.parse(body)
        let paymentId = try fields.string("paymentId", length: 1...64)
        let paymentRequestId = try fields.string("paymentRequestId", length: 1...64)
        guard paymentId != nil || paymentRequestId != nil else {
            throw AntomRejection.illegal("paymentRequestId or paymentId is required (paymentId wins when both are given).")
        }
        switch try await store.inquire(clientID: client.id, paymentId: paymentId, paymentRequestId: paymentRequestId, now: now, limits: limits) {
        case .found(let answer): return answer
        case .trafficLimited:
            throw AntomRejection("REQUEST_TRAFFIC_EXCEED_LIMIT", "The request traffic exceeds the limit (sandbox magic amount 8202); ask again.", resultStatus: "U")
        case .notFound: throw AntomRejection.orderNotExist
        }
    }

    // MARK: - The customer

    /// The customer acts on session `id`. Magic 8001's confirmation is due `pendingSeconds`
    /// later: the store settles it then (the sandbox's due-time worker, or any read), exactly
    /// once whichever instance sees it due first, and that one sends its notification.
    func act(_ action: AntomSessionStore.Action, on id: String) async throws(SandboxStoreUnavailable) -> Result<AntomSessionRecord, AntomSessionStore.Refusal> {
        let scale = settings.timeScale.isFinite && settings.timeScale > 0 ? settings.timeScale : 1
        let delay = AntomMagic.pendingSeconds / scale
        return try await store.act(action, on: id, now: now, pendingDelay: delay)
    }
}
