/// Adyen's identifiers: 16 characters of [0-9A-Z], for pspReferences and stored method ids.
enum AdyenIDs {
    private static let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ")

    static func pspReference() -> String {
        var generator = SystemRandomNumberGenerator()
        return String((0..<16).map { _ in alphabet.randomElement(using: &generator)! })
    }

    static func storedPaymentMethodID() -> String { pspReference() }
}
