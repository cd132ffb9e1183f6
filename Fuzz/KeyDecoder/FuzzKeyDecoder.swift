import TerminalUI

/// ncurses `get_wch` results as `NcursesTerminal` passes them on: each five bytes are a
/// 32-bit code and whether it was a function key.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzKeyDecoder(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    var offset = 0
    while offset + 5 <= count {
        let code = (0..<4).reduce(UInt32(0)) { code, index in code << 8 | UInt32(bytes[offset + index]) }
        _ = KeyDecoding.decode(code, isFunctionKey: bytes[offset + 4] & 1 == 1)
        offset += 5
    }
    return 0
}

#if FUZZ_SMOKE
import FuzzDriver

/// The entry point of `make fuzz-smoke`'s build (see FuzzDriver).
@_cdecl("FuzzKeyDecoder_main")
func smokeMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runLibFuzzer(argc, argv) { bytes, count in bytes.map { fuzzKeyDecoder($0, count) } ?? 0 }
}
#endif
