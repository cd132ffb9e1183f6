import Hummingbird
import ProviderWire

extension HTTPFields {
    /// The checkout run a request names (`SandboxRunHeader`), if it names one.
    var sandboxRun: String? {
        let name = SandboxRunHeader.name.lowercased()
        return first { $0.name.canonicalName == name }?.value
    }
}
