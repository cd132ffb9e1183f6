import CWritableData
import Foundation
import Testing

/// `checkout`'s first step: the executable's `.data` and `.bss` made resident at once. Run here
/// in the test executable, which has both sections too.
@Suite struct WritableDataPrefaultTests {
    @Test func findsBothSectionsAndMakesWholePagesResident() {
        let bytes = writable_data_prefault()
        #if os(Linux)
        // Linux 5.14 or later (MADV_POPULATE_WRITE); whole pages only, never a partial one.
        let page = sysconf(Int32(_SC_PAGESIZE))
        #expect(bytes > 0)
        #expect(bytes % page == 0)
        // Asked again (nothing left to fault in), it does the same and still succeeds.
        #expect(writable_data_prefault() == bytes)
        #else
        #expect(bytes == 0)
        #endif
    }
}
