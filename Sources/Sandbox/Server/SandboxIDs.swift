import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Random identifiers with a prefix (Cash App's GRR_…, webhook deliveries' WHD_…), lower-case letters and digits.
enum SandboxIDs {
    private static let alphabet: [UInt8] = Array("abcdefghijklmnopqrstuvwxyz0123456789".utf8)

    static func make(_ prefix: String, length: Int = 26) -> String {
        // Twelve characters from each 64 random bits (36^12 < 2^64), the bits drawn from the
        // system a batch at a time (the sandbox mints two ids per create under load). Written as
        // bytes: appending Characters one by one cost more than the random bits.
        let radix = UInt64(alphabet.count)
        var bytes = [UInt8](prefix.utf8)
        bytes.reserveCapacity(bytes.count + max(0, length))
        var bits: UInt64 = 0
        var left = 0
        for _ in 0..<max(0, length) {
            if left == 0 {
                bits = RandomWords.shared.next()
                left = 12
            }
            bytes.append(alphabet[Int(bits % radix)])
            bits /= radix
            left -= 1
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

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
