import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The C allocator's arenas in a long-running sandbox.
public enum AllocatorArenas {
    /// glibc gives each thread that allocates at once an arena of its own, up to eight per core,
    /// and keeps what it took: under load a sandbox's resident memory crept up run after run
    /// (+10% over three 10 s runs of P6) without holding more. One arena per core (at least two)
    /// kept it flat (+0.8%) at the same throughput. Elsewhere, or when `MALLOC_ARENA_MAX` is
    /// set, the allocator is left as it is. Returns whether the limit was set.
    @discardableResult
    public static func limitToCores() -> Bool {
        #if canImport(Glibc)
        // The operator's own MALLOC_ARENA_MAX wins.
        guard getenv("MALLOC_ARENA_MAX") == nil else { return false }
        // mallopt is in <malloc.h>, which Swift's Glibc module leaves out: found by name.
        typealias MallocOption = @convention(c) (Int32, Int32) -> Int32
        let arenaMaximum: Int32 = -8  // M_ARENA_MAX
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return false }
        let mallopt = unsafeBitCast(symbol, to: MallocOption.self)
        return mallopt(arenaMaximum, Int32(max(2, min(64, ProcessInfo.processInfo.activeProcessorCount)))) == 1
        #else
        return false
        #endif
    }
}
