/// Random identifiers in the shapes Cash App uses (GRR_…, GRG_…, CST_…).
enum SandboxIDs {
    private static let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")

    static func make(_ prefix: String, length: Int = 26) -> String {
        var generator = SystemRandomNumberGenerator()
        return prefix + String((0..<length).map { _ in alphabet.randomElement(using: &generator)! })
    }
}
