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
