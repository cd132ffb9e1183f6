import Foundation
import Sandbox

/// `--fault 'METHOD PATH-PREFIX KIND[*N]'` as the command line and scenario files read it; a
/// rule that parses must read back from its description, which scenarios record.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFaultSpec(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let spec = String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    guard let rule = try? FaultRule(spec: spec) else { return 0 }
    guard (try? FaultRule(spec: rule.description)) == rule else {
        fatalError("\(rule) does not read back from its description")
    }
    _ = rule.matches(method: "POST", path: "/v2/payments")
    return 0
}

#if FUZZ_SMOKE
import FuzzDriver

/// The entry point of `make fuzz-smoke`'s build (see FuzzDriver).
@_cdecl("FuzzFaultSpec_main")
func smokeMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runLibFuzzer(argc, argv) { bytes, count in bytes.map { fuzzFaultSpec($0, count) } ?? 0 }
}
#endif
