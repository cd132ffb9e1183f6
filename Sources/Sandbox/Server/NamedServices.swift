import Logging
import ServiceLifecycle

extension ServiceGroup {
    /// A group of services named by the caller. ServiceLifecycle's own initialiser names each by
    /// `"\(service)"`: for a type without a description that reflects the whole value, which on a
    /// Hummingbird application was a third of a headless run's start-up (the runtime's
    /// conformance lookups for every type it reached).
    public static func named(_ services: [(name: String, service: any Service)], logger: Logger) -> ServiceGroup {
        ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: services.map { .init(service: $0.service, serviceName: $0.name) },
                gracefulShutdownSignals: [], cancellationSignals: [], logger: logger))
    }
}
