import Foundation
import Hummingbird
import ProviderWire

/// What every Square route shares: the store, the settings, and the checks each request gets
/// where it enters (the Bearer token, the `Square-Version` header, the body).
struct SquareEndpoint: Sendable {
    /// Tokens starting this are accepted (Square's access tokens do: `EAAA…`).
    static let tokenPrefix = "EAAA"
    static let maxTokenLength = 1_024
    /// The seller's main location: payments without a `location_id` are taken there, and
    /// ListPayments without one lists it.
    static let defaultLocationID = "LSANDBOX0001"

    let store: SquarePaymentStore
    let settings: SandboxSettings
    /// Reads the nonces a device wallet issues for Square; nil when the sandbox has no wallet.
    let cardTokens: (any CardTokenReader)?

    var now: Date { settings.now() }
    var limits: SandboxLimits { settings.limits }

    /// `Authorization: Bearer EAAA…`, then `Square-Version` (optional, `YYYY-MM-DD`).
    func authenticate(_ request: Request) throws(SquareRejection) {
        guard let authorization = request.headers.value(.authorization) else { throw SquareRejection.noAuthorization }
        let parts = authorization.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer", parts[1].hasPrefix(Self.tokenPrefix), parts[1].utf8.count <= Self.maxTokenLength else {
            throw SquareRejection.unauthorized
        }
        if let version = request.headers.value(SquareSandbox.versionHeader), !Self.isVersion(version) {
            throw SquareRejection.invalid(
                "INVALID_SQUARE_VERSION_FORMAT", "The Square-Version header must be a date, YYYY-MM-DD (e.g. 2026-09-16); got \(version.prefix(40)).")
        }
    }

    /// `YYYY-MM-DD`, a real date.
    static func isVersion(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]), year >= 2000, (1...12).contains(month)
        else { return false }
        return CivilDate(year: Int64(year), month: Int64(month), day: Int64(day)).isValid
    }

    func body(_ request: Request) async throws(SquareRejection) -> Data {
        do { return try await request.readBody(limit: limits.maxBodyBytes) } catch let error as BodyTooLarge {
            throw SquareRejection.tooLarge(error)
        } catch {
            throw SquareRejection.invalid("BAD_REQUEST", "The request body could not be read.")
        }
    }

    /// Authenticates, then runs `handler`, answering any rejection in Square's shape.
    func answer(_ request: Request, _ handler: () async throws -> Response) async throws -> Response {
        try await squareAnswer { () throws -> Response in
            try authenticate(request)
            // One transaction: a payment, the source it spends and the request it completes together.
            return try await settings.storage.atomically { try await handler() }
        }
    }

    /// The sandbox's base URL as the client reached it, for receipt links (a silly Host falls back).
    static func receiptBase(_ request: Request) -> String {
        let authority = request.head.authority ?? ""
        let sane = (1...255).contains(authority.utf8.count)
            && authority.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || ".-:[]".unicodeScalars.contains($0)) }
        return sane ? "http://\(authority)" : "http://127.0.0.1"
    }

    static func notFound(payment id: String) -> SquareRejection {
        SquareRejection.notFound("Could not find payment with id `\(id.prefix(64))`.")
    }
}
