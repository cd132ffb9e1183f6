@testable import CheckoutApp
import CheckoutModel
import Foundation

/// Transcripts as `checkout replay` and `checkout run --replay` read them: the HAR document,
/// the lines `--headless` prints, the timeline the screen plays, the steps a re-run is
/// compared with, and the recorded scenario and cart.
private let catalog = try! Catalog.bundled()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTranscript(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard let document = try? Transcript.read(Data(bytes: bytes, count: count), path: "fuzz.har") else { return 0 }
    for json in [false, true] { _ = TranscriptReplay.printLines(document, json: json) { _ in } }
    _ = ReplayTimeline(document)
    let recorded = document.log.terminalCheckout?.events ?? []
    _ = ReplayDivergence.first(recorded: recorded, actual: Array(recorded.prefix(1)))
    if let scenario = try? Transcript.scenario(of: document, path: "fuzz.har", catalog: catalog) {
        var state = AppState(
            catalog: catalog, endpointLabel: "replay", customerSimulated: false,
            paymentMethods: ProviderRegistry.builtIn.paymentMethods, now: Date())
        try? scenario.load(into: &state, catalog: catalog)
    }
    return 0
}

#if FUZZ_SMOKE
import FuzzDriver

/// The entry point of `make fuzz-smoke`'s build (see FuzzDriver).
@_cdecl("FuzzTranscript_main")
func smokeMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runLibFuzzer(argc, argv) { bytes, count in bytes.map { fuzzTranscript($0, count) } ?? 0 }
}
#endif
