import ProviderWire

/// A kept customer request as a database store writes it, by hand: byte for byte what
/// `StoredRecordCoding.encoder()` writes (`StoredRequestJSONTests` holds it to that). Every create
/// writes one, and Foundation's encoder was a tenth of an instance's time under load (`make
/// bench`'s P6). Nil for metadata of more than one key (whose order the encoder decides), left to
/// the encoder.
enum StoredRequestJSON {
    static func text(_ stored: CustomerRequestStore.StoredRequest) -> String? {
        var out = JSONBytes(.stored)
        out.open()
        out.key("clientID")
        guard out.string(stored.clientID) else { return nil }
        out.key("params")
        guard out.params(stored.params) else { return nil }
        out.key("request")
        guard out.request(stored.request) else { return nil }
        out.key("scopedKey")
        guard out.string(stored.scopedKey) else { return nil }
        out.key("triggerSeed")
        guard out.string(stored.triggerSeed) else { return nil }
        out.close()
        return String(decoding: out.bytes, as: UTF8.self)
    }
}
