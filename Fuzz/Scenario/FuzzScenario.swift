@testable import CheckoutApp
@testable import CheckoutModel
import Foundation
import ProviderWire

/// Scenario files as `checkout --scenario` reads them, then the cart and order `checkout run`
/// builds from one, and the copy a transcript records, which must read back. The same bytes as
/// a catalog file: whatever the catalog's fast reader reads, JSONDecoder must read the same.
private let catalog = try! Catalog.bundled()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScenario(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    checkCatalogReadersAgree(on: data)
    guard let scenario = try? ScenarioParser.parse(contents: data, file: "fuzz.yaml", catalog: catalog) else { return 0 }
    if let cart = try? scenario.cart(in: catalog) {
        _ = try? scenario.order(cart: cart, merchantName: "Fuzz")
    }
    // The recorder keeps `jsonObject` as a JSONValue, and `checkout run --replay` parses its text.
    do {
        let recorded = try JSONValue(serialized: scenario.jsonObject)
        _ = try ScenarioParser.parse(recorded.text, file: "recorded.json", catalog: catalog)
    } catch {
        fatalError("a scenario that parsed does not read back from its recorded form: \(error)")
    }
    return 0
}

private func checkCatalogReadersAgree(on data: Data) {
    guard CatalogFastReader.read(data) != nil else { return }
    let fast = Result { () throws(CatalogError) in try Catalog(json: data) }
    let decoded = Result { () throws(CatalogError) in try Catalog(decoding: data) }
    if fast != decoded { fatalError("the catalog's fast reader and JSONDecoder disagree: \(fast) against \(decoded)") }
}

#if FUZZ_SMOKE
import FuzzDriver

/// The entry point of `make fuzz-smoke`'s build (see FuzzDriver).
@_cdecl("FuzzScenario_main")
func smokeMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runLibFuzzer(argc, argv) { bytes, count in bytes.map { fuzzScenario($0, count) } ?? 0 }
}
#endif
