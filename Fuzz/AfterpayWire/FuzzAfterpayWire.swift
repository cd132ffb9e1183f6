import Foundation
@testable import ProviderClients
import ProviderWire

/// Afterpay's v2 bodies from both sides. The first byte picks what reads the rest: the
/// sandbox decoding one of the four request bodies (as its routes do), or the client decoding
/// one of the five answers (an error body when the status is not 2xx; Get Configuration's
/// shares validate-payment's selector, split by the low bit), and reading
/// sign-payment's JWT as the checkout does.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAfterpayWire(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard count > 0 else { return 0 }
    let body = Data(bytes: bytes + 1, count: count - 1)
    let status = bytes[0] & 0x80 == 0 ? 200 : 400 + Int(bytes[0] & 0x0F)
    let response = ProviderResponse(status: status, headers: [], body: body)
    switch (bytes[0] >> 4) & 7 {
    case 0: sandboxReads(AfterpayCheckoutRequest.self, body)
    case 1: sandboxReads(AfterpaySignRequest.self, body)
    case 2: sandboxReads(AfterpayValidateRequest.self, body)
    case 3: sandboxReads(AfterpayCaptureRequest.self, body)
    case 4: clientReads(AfterpayCheckoutResponse.self, response)
    case 5:
        guard let signed: AfterpaySignResponse = clientReads(AfterpaySignResponse.self, response) else { break }
        waitFor { _ = try? await SignedPayment(signed: signed) }
    // The low bit shares case 6 between validate-payment's answer and Get Configuration's.
    case 6 where bytes[0] & 1 == 0: clientReads(AfterpayValidateResponse.self, response)
    case 6: clientReads(AfterpayMerchantConfiguration.self, response)
    default: clientReads(AfterpayPayment.self, response)
    }
    return 0
}

private func sandboxReads<Body: Decodable>(_ type: Body.Type, _ body: Data) {
    _ = try? JSONDecoder().decode(type, from: body)
}

@discardableResult
private func clientReads<Answer: Decodable>(_ type: Answer.Type, _ response: ProviderResponse) -> Answer? {
    do throws(AfterpayFailure) {
        return try AfterpayClient.decode(response) as Answer
    } catch {
        _ = "\(error)"
        return nil
    }
}

/// Runs async work to its end from libFuzzer's synchronous callback.
private func waitFor(_ work: @escaping @Sendable () async -> Void) {
    let done = DispatchSemaphore(value: 0)
    Task {
        await work()
        done.signal()
    }
    done.wait()
}

#if FUZZ_SMOKE
import FuzzDriver

/// The entry point of `make fuzz-smoke`'s build (see FuzzDriver).
@_cdecl("FuzzAfterpayWire_main")
func smokeMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runLibFuzzer(argc, argv) { bytes, count in bytes.map { fuzzAfterpayWire($0, count) } ?? 0 }
}
#endif
