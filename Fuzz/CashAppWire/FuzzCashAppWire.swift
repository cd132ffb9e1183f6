import Foundation
import FuzzAsync
import ProviderClients
import ProviderWire
@testable import Sandbox

/// Cash App Pay's Customer Request API bodies from both sides. The first byte picks what
/// reads the rest: the sandbox checking a create or update body (and then answering it, which
/// the client must read back; a create read without JSONDecoder must match JSONDecoder), or
/// the client reading a response with one of these statuses.
private let statuses = [200, 201, 400, 401, 404, 409, 429, 500]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCashAppWire(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard count > 0 else { return 0 }
    let body = Data(bytes: bytes + 1, count: count - 1)
    switch bytes[0] & 3 {
    case 0: sandboxCreates(body)
    case 1: sandboxUpdates(body)
    default: clientReads(ProviderResponse(status: statuses[Int(bytes[0] >> 2) % statuses.count], headers: [], body: body))
    }
    return 0
}

private func sandboxCreates(_ body: Data) {
    // Whatever the sandbox reads without JSONDecoder, JSONDecoder must read the same.
    if let plain = CreateBodyFastReader.read(body), plain != (try? CashAppJSON.decoder().decode(CreateCustomerRequestBody.self, from: body)) {
        fatalError("the fast reader read \(plain), which JSONDecoder does not")
    }
    guard let create = try? CustomerRequestValidation.decodeCreate(body),
        (try? CustomerRequestValidation.checkScopes(create.request.actions)) != nil
    else { return }
    _ = CustomerRequestValidation.isMagicServerError(create.request.actions)
    let store = CustomerRequestStore(settings: settings)
    let outcome = blocking { try? await store.create(params: create.request, idempotencyKey: create.idempotencyKey, clientID: clientID, baseURL: baseURL) }
    guard case .created(let created) = outcome else { fatalError("a new store refused a first create") }
    clientMustRead(created)
}

private func sandboxUpdates(_ body: Data) {
    guard let update = try? CustomerRequestValidation.decodeUpdate(body) else { return }
    if let actions = update.actions {
        guard (try? CustomerRequestValidation.checkScopes(actions)) != nil else { return }
        _ = CustomerRequestValidation.isMagicServerError(actions)
    }
    let store = CustomerRequestStore(settings: settings)
    let pending = CreateCustomerRequestParams(
        actions: [.oneTimePayment(scopeID: "BRAND_fuzz", amount: 4505, currency: "USD")],
        channel: .ONLINE, redirectURL: "terminalcheckout://return", referenceID: "order-1", metadata: nil)
    let changed = blocking { () async -> CustomerRequest? in
        guard case .created(let created) = try? await store.create(params: pending, idempotencyKey: "fuzz", clientID: clientID, baseURL: baseURL),
            case .changed(let changed) = try? await store.change(id: created.id, clientID: clientID, baseURL: baseURL, { stored, _ in
                if let actions = update.actions { stored.actions = actions }
                stored.referenceID = update.referenceID
                stored.metadata = update.metadata
            })
        else { return nil }
        return changed
    }
    guard let changed else { fatalError("a new store refused to create or change a pending request") }
    clientMustRead(changed)
}

/// What the sandbox answers, encoded as it sends it, must decode in the client.
private func clientMustRead(_ request: CustomerRequest) {
    guard let answer = try? CashAppJSON.encoder().encode(CustomerRequestEnvelope(request: request)),
        (try? CustomerRequestClient.decode(ProviderResponse(status: 200, headers: [], body: answer))) == request
    else { fatalError("the client cannot read the sandbox's answer for \(request.id)") }
}

private func clientReads(_ response: ProviderResponse) {
    do { _ = try CustomerRequestClient.decode(response) } catch { _ = "\(error)" }
}

/// Whole seconds, so the answer's millisecond dates read back equal.
private let settings = SandboxSettings(now: { Date(timeIntervalSince1970: 1_800_000_000) })
private let clientID = "CAS-CI_FUZZ"
private let baseURL = "http://127.0.0.1:8080"

#if FUZZ_SMOKE
import FuzzDriver

/// The entry point of `make fuzz-smoke`'s build (see FuzzDriver).
@_cdecl("FuzzCashAppWire_main")
func smokeMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runLibFuzzer(argc, argv) { bytes, count in bytes.map { fuzzCashAppWire($0, count) } ?? 0 }
}
#endif
