import Crypto
import Foundation

/// The secret that lets a client steer a shared sandbox (`checkout sandbox --control-token`,
/// `--control-token-file`, `CHECKOUT_SANDBOX_CONTROL_TOKEN`). Only its SHA-256 digest is kept, and
/// it never prints: what a client sends is hashed and compared with it in constant time.
public struct SandboxControlToken: Sendable, CustomStringConvertible {
    /// The shortest token taken: 16 characters.
    public static let minimumLength = 16
    /// The longest: a token is a line, not a file.
    public static let maximumLength = 512

    private let digest: [UInt8]

    /// A token that `problem(_:)` passes; nil otherwise.
    public init?(_ token: String) {
        guard Self.problem(token) == nil else { return nil }
        digest = Self.digest(of: Substring(token))
    }

    /// Why `token` cannot be a control token, worded as the rule; nil when it can. Never quotes
    /// the token.
    public static func problem(_ token: String) -> String? {
        let count = token.unicodeScalars.count
        guard count >= minimumLength else {
            return "must be at least \(minimumLength) characters (it has \(count)); make one with `openssl rand -hex 32`"
        }
        guard count <= maximumLength else { return "must be at most \(maximumLength) characters (it has \(count))" }
        // Printable ASCII without the space: what an Authorization header carries unquoted.
        guard token.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) }) else {
            return "must be printable ASCII without spaces (letters, digits and punctuation); make one with `openssl rand -hex 32`"
        }
        return nil
    }

    /// Whether an `Authorization` header carries this token as `Bearer <token>`. Both sides are
    /// hashed first, so the comparison takes the same time whatever the token sent (its length
    /// included) and however many of its bytes match.
    public func admits(authorization: String?) -> Bool {
        guard let authorization else { return false }
        let scheme = "bearer "
        let bearer = authorization.count > scheme.count && authorization.prefix(scheme.count).lowercased() == scheme
        // Without the scheme the whole header is hashed all the same: a missing scheme takes as
        // long as a wrong token.
        let sent = bearer ? authorization.dropFirst(scheme.count).drop { $0 == " " } : Substring(authorization)
        let candidate = Self.digest(of: sent)
        var difference: UInt8 = 0
        for index in 0..<digest.count { difference |= digest[index] ^ candidate[index] }
        return difference == 0 && bearer
    }

    public var description: String { "[REDACTED control token]" }

    private static func digest(of text: Substring) -> [UInt8] { Array(SHA256.hash(data: Data(text.utf8))) }
}
