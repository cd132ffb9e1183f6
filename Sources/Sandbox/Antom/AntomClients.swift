import Foundation
import ProviderWire
import _CryptoExtras

/// The merchants (client ids and their public keys) the sandbox verifies requests from: the
/// built-in test client of `AntomSandboxCredentials`, and those registered at
/// `POST /sandbox/antom/clients`. Bounded: past `capacity` registrations the oldest goes (a shared
/// sandbox outlives the runs that registered them); the built-in client never goes.
final class AntomClients: Sendable {
    struct Client: StoredRecord {
        let id: String
        let publicKey: _RSA.Signing.PublicKey
        let builtIn: Bool

        var storeKey: String { id }
    }

    /// Registered clients kept at once, besides the built-in one.
    static let capacity = 64
    static let maxIDLength = 64

    private let registered = MemoryRecordStore<Client>()
    /// However old, the oldest go first past the capacity.
    private static let retention = Retention(age: .infinity, capacity: capacity)
    let builtIn: Client

    init() {
        do {
            builtIn = Client(
                id: AntomSandboxCredentials.clientID, publicKey: try AntomSignature.publicKey(AntomSandboxCredentials.clientPublicKey),
                builtIn: true)
        } catch {
            preconditionFailure("the embedded Antom test client key does not parse: \(error)")
        }
    }

    /// 1–64 characters of `[A-Za-z0-9_-]`.
    static func isValidID(_ id: String) -> Bool {
        (1...maxIDLength).contains(id.utf8.count)
            && id.utf8.allSatisfy { byte in
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
            }
    }

    func client(_ id: String) -> Client? {
        if id == builtIn.id { return builtIn }
        return registered.record(.key(id))
    }

    var ids: [String] { [builtIn.id] + registered.records().map(\.id) }

    enum Refusal: Error {
        case invalid(field: String, String)
        case builtIn
    }

    /// Registers (or re-keys) `id`. The key is PEM or bare base64 DER, RSA of at least 2048 bits.
    func register(id: String, publicKey text: String) throws(Refusal) -> Client {
        guard Self.isValidID(id) else {
            throw .invalid(field: "client_id", "client_id must be 1–\(Self.maxIDLength) characters of A–Z, a–z, 0–9, _ and -.")
        }
        guard id != builtIn.id else { throw .builtIn }
        guard text.utf8.count <= 8_192 else { throw .invalid(field: "public_key", "public_key is longer than 8192 characters.") }
        let key: _RSA.Signing.PublicKey
        do { key = try AntomSignature.publicKey(text) } catch {
            throw .invalid(
                field: "public_key",
                "public_key must be an RSA public key of at least 2048 bits, PEM or bare base64 (SubjectPublicKeyInfo): \(error)")
        }
        let client = Client(id: id, publicKey: key, builtIn: false)
        // Re-keying moves it to the back of the line.
        _ = registered.remove(id)
        _ = registered.create(at: StoreMoment(now: .distantPast, retention: Self.retention)) { _ in client }
        return client
    }
}
