import Sandbox
import Testing

/// A standalone sandbox limits glibc's arenas (its memory stays flat under load); elsewhere it
/// leaves the allocator as it is.
@Suite struct AllocatorArenasTests {
    @Test func theLimitIsSetWhereTheAllocatorIsGlibcs() {
        #if canImport(Glibc)
        #expect(AllocatorArenas.limitToCores(), "mallopt(M_ARENA_MAX) was not found or refused the limit")
        #else
        #expect(!AllocatorArenas.limitToCores())
        #endif
    }
}
