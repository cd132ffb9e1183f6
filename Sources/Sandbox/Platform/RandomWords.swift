import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Random 64-bit words from the system's generator (the kernel's, as `SystemRandomNumberGenerator`
/// draws them), fetched 32 at a time: one system call per batch rather than per word.
final class RandomWords: Sendable {
    static let shared = RandomWords()
    private static let batch = 32

    private let pool = Mutex<(words: [UInt64], next: Int)>(([], 0))

    func next() -> UInt64 {
        pool.withLock { pool in
            if pool.next >= pool.words.count {
                pool.words = Self.draw()
                pool.next = 0
            }
            defer { pool.next += 1 }
            return pool.words[pool.next]
        }
    }

    private static func draw() -> [UInt64] {
        var words = [UInt64](repeating: 0, count: batch)
        #if canImport(Glibc)
        // getentropy: the kernel's generator, up to 256 bytes a call (these are 256).
        if words.withUnsafeMutableBytes({ getentropy($0.baseAddress, $0.count) }) == 0 { return words }
        #endif
        var generator = SystemRandomNumberGenerator()
        return words.map { _ in generator.next() }
    }
}
