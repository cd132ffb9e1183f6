import CWritableData
import Foundation
import Testing

/// `checkout`'s first step: the executable's `.bss` made resident at once. Run here in the test
/// executable, which has the section too.
@Suite struct WritableDataPrefaultTests {
    @Test func findsTheSectionAndMakesWholePagesResident() {
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

    @Test func startsOnAThreadOfItsOwn() {
        #if os(Linux)
        #expect(writable_data_prefault_in_background() == 1)
        #else
        #expect(writable_data_prefault_in_background() == 0)
        #endif
    }
}
