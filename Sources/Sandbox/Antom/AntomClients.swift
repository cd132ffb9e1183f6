import Foundation
import ProviderWire
import _CryptoExtras

/// The merchants (client ids and their public keys) the sandbox verifies requests from: the
/// built-in test client of `AntomSandboxCredentials`, and those registered at
/// `POST /sandbox/antom/clients`. Bounded: past `capacity` registrations the oldest goes (a shared
/// sandbox outlives the runs that registered them); the built-in client never goes.
final class AntomClients: Sendable {
    struct Client: StoredRecord, Codable, Equatable {
        let id: String
        let publicKey: _RSA.Signing.PublicKey
        let builtIn: Bool

        var storeKey: String { id }

        init(id: String, publicKey: _RSA.Signing.PublicKey, builtIn: Bool) {
            self.id = id
            self.publicKey = publicKey
            self.builtIn = builtIn
        }

        /// The key is kept as its DER in base64, and read back as `register` reads one.
        enum CodingKeys: String, CodingKey { case id, publicKey = "public_key", builtIn = "built_in" }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(String.self, forKey: .id)
            publicKey = try AntomSignature.publicKey(try container.decode(String.self, forKey: .publicKey))
            builtIn = try container.decode(Bool.self, forKey: .builtIn)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(publicKey.derRepresentation.base64EncodedString(), forKey: .publicKey)
            try container.encode(builtIn, forKey: .builtIn)
        }

        static func == (lhs: Client, rhs: Client) -> Bool {
            lhs.id == rhs.id && lhs.builtIn == rhs.builtIn && lhs.publicKey.derRepresentation == rhs.publicKey.derRepresentation
        }
    }

    /// Registered clients kept at once, besides the built-in one.
    static let capacity = 64
    static let maxIDLength = 64

    private let registered: ProviderStore<Client>
    /// However old, the oldest go first past the capacity.
    private static let retention = Retention(age: .infinity, capacity: capacity)
    let builtIn: Client

    init(storage: any SandboxStorage) {
        registered = ProviderStore("antom.clients", in: storage)
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

    func client(_ id: String) async throws(SandboxStoreUnavailable) -> Client? {
        if id == builtIn.id { return builtIn }
        return try await registered.record(.key(id))
    }

    var ids: [String] { get async throws { [builtIn.id] + (try await registered.records().map(\.id)) } }

    enum Refusal: Error {
        case invalid(field: String, String)
        case builtIn
    }

    /// Registers (or re-keys) `id`. The key is PEM or bare base64 DER, RSA of at least 2048 bits.
    func register(id: String, publicKey text: String) async throws -> Client {
        guard Self.isValidID(id) else {
            throw Refusal.invalid(field: "client_id", "client_id must be 1–\(Self.maxIDLength) characters of A–Z, a–z, 0–9, _ and -.")
        }
        guard id != builtIn.id else { throw Refusal.builtIn }
        guard text.utf8.count <= 8_192 else { throw Refusal.invalid(field: "public_key", "public_key is longer than 8192 characters.") }
        let key: _RSA.Signing.PublicKey
        do { key = try AntomSignature.publicKey(text) } catch {
            throw Refusal.invalid(
                field: "public_key",
                "public_key must be an RSA public key of at least 2048 bits, PEM or bare base64 (SubjectPublicKeyInfo): \(error)")
        }
        let client = Client(id: id, publicKey: key, builtIn: false)
        // Re-keying moves it to the back of the line.
        _ = try await registered.remove(id)
        _ = try await registered.create(at: StoreMoment(now: .distantPast, retention: Self.retention)) { _ in client }
        return client
    }
}
