import CWritableData
import Foundation
import Testing

/// `checkout`'s first step: the executable's `.bss` made resident at once. Run here in the test
/// executable, which has the section too.
@Suite struct WritableDataPrefaultTests {
    @Test func findsTheSectionAndMakesWholePagesResident() {
        let bytes = writable_data_prefault()
        guard writable_data_supported() == 1 else {
            #expect(bytes == 0)
            return
        }
        // Linux 5.14 or later (MADV_POPULATE_WRITE); whole pages only, never a partial one.
        #expect(bytes > 0)
        #expect(bytes % sysconf(Int32(_SC_PAGESIZE)) == 0)
        // Asked again (nothing left to fault in), it does the same and still succeeds.
        #expect(writable_data_prefault() == bytes)
    }

    @Test func startsOnAThreadOfItsOwnWhereItActs() {
        #expect(writable_data_prefault_in_background() == writable_data_supported())
    }
}
