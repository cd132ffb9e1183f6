import CheckoutModel

/// Decimal amounts as catalogs, scenarios and Afterpay's wire carry them, in every currency
/// this build knows; an amount that parses must read back from its decimal string.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMoney(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    for currency in Currency.known {
        guard let money = try? Money(decimal: text, currency: currency) else { continue }
        _ = money.formatted
        guard (try? Money(decimal: money.decimalString, currency: currency)) == money else {
            fatalError("\(text) parsed as \(money.minorUnits) \(currency) but \(money.decimalString) does not read back")
        }
    }
    return 0
}

#if FUZZ_SMOKE
import FuzzDriver

/// The entry point of `make fuzz-smoke`'s build (see FuzzDriver).
@_cdecl("FuzzMoney_main")
func smokeMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runLibFuzzer(argc, argv) { bytes, count in bytes.map { fuzzMoney($0, count) } ?? 0 }
}
#endif
