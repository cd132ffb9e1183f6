import Foundation
import Hummingbird
import Sandbox
import Synchronization

/// The test provider's sandbox: `POST /testpay/v1/payments` creates a pending payment,
/// `GET /testpay/v1/payments/{id}` answers it; the simulated customer approves or declines it.
struct TestPaySandbox: SandboxProvider {
    let id = "testpay"
    let summary = "Test Pay under /testpay/v1/payments"
    let pathPrefixes = ["/testpay/"]
    let payments = Payments()

    final class Payments: Sendable {
        let states = Mutex<[String: String]>([:])
        func state(_ id: String) -> String? { states.withLock { $0[id] } }
        func set(_ id: String, _ state: String) { states.withLock { $0[id] = state } }
    }

    struct Payment: Codable {
        var id: String
        var state: String
        var amount_cents: Int
        var currency: String
        var pay_url: String
    }

    func register(on router: some RouterMethods<SandboxRequestContext>, core: SandboxCore) {
        router.post("testpay/v1/payments") { request, context in
            var request = request
            let body = try await request.collectBody(upTo: 1 << 16)
            guard let object = try? JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any],
                let cents = object["amount_cents"] as? Int, let currency = object["currency"] as? String
            else { return Self.json(["error": "send amount_cents and currency"], status: .badRequest) }
            let id = "TP_" + UUID().uuidString.prefix(8)
            payments.set(id, "pending")
            return Self.json(Payment(id: id, state: "pending", amount_cents: cents, currency: currency, pay_url: "https://testpay.example/pay/\(id)"))
        }
        router.get("testpay/v1/payments/:id") { _, context in
            let id = context.parameters.get("id") ?? ""
            guard let state = payments.state(id) else { return Self.json(["error": "no payment \(id)"], status: .notFound) }
            return Self.json(Payment(id: id, state: state, amount_cents: 0, currency: "USD", pay_url: "https://testpay.example/pay/\(id)"))
        }
    }

    func customerActs(approve: Bool, on id: String, request: Request, core: SandboxCore) -> Response? {
        guard payments.state(id) == "pending" else { return nil }
        payments.set(id, approve ? "approved" : "declined")
        return Self.json(["id": id, "state": approve ? "approved" : "declined"], status: .ok)
    }

    func faultResponse(_ fault: InjectedFault) -> Response {
        Self.json(["error": ["reason": fault.error.code, "message": fault.error.message]], status: fault.error.status)
    }

    static func json<Value: Encodable>(_ value: Value, status: HTTPResponse.Status = .ok) -> Response {
        let data = (try? JSONEncoder().encode(value)) ?? Data("{}".utf8)
        return Response(status: status, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func json(_ object: [String: Any], status: HTTPResponse.Status) -> Response {
        let data = (try? JSONSerialization.data(withJSONObject: object)) ?? Data("{}".utf8)
        return Response(status: status, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}
