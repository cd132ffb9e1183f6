import HTTPTypes
import Hummingbird
import ProviderWire

extension HTTPFields {
    /// The checkout run a request names (`SandboxRunHeader`), if it names one.
    var sandboxRun: String? {
        self[HTTPField.Name.sandboxRun]
    }
}

extension HTTPField.Name {
    /// Made once: every request is asked for it (the fault plan, the journal, the access log).
    static let sandboxRun = HTTPField.Name(SandboxRunHeader.name)!
}
