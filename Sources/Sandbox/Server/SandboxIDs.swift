/// Random identifiers with a prefix (Cash App's GRR_…, webhook deliveries' WHD_…), lower-case letters and digits.
enum SandboxIDs {
    private static let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")

    static func make(_ prefix: String, length: Int = 26) -> String {
        // Twelve characters from each 64 random bits (36^12 < 2^64): one getrandom call per
        // twelve, not per character (the sandbox mints one per request under load).
        var generator = SystemRandomNumberGenerator()
        let characters = Array(alphabet)
        var id = prefix
        var bits: UInt64 = 0
        var left = 0
        for _ in 0..<length {
            if left == 0 {
                bits = generator.next()
                left = 12
            }
            id.append(characters[Int(bits % UInt64(characters.count))])
            bits /= UInt64(characters.count)
            left -= 1
        }
        return id
    }
}
