import Foundation
import ProviderClients
import ProviderWire

/// `checkout config check`: each credential resolves, each real provider accepts them on a
/// harmless call, and a shared sandbox answers; every exchange is kept (redacted) to show.
public struct ProfileCheckReport: Sendable {
    public struct Credential: Sendable, Hashable {
        public var flag: String
        public var source: String
        /// Nil when it resolved; the problem otherwise.
        public var problem: String?
        public var characters: Int?
    }

    public struct Endpoint: Sendable {
        /// A provider id, or "sandbox" for the shared sandbox.
        public var subject: String
        public var url: String
        public var call: String
        public var result: CredentialProbeResult
        public var exchanges: [HTTPExchange]
    }

    public var profile: String
    public var path: String
    public var credentials: [Credential]
    public var endpoints: [Endpoint]
    /// Providers left on a sandbox (nothing of theirs to check against a real host).
    public var onSandbox: [String]

    /// How the sandbox's control token is named among the credentials (a profile key, not a flag).
    public static let controlTokenField = "sandbox_control_token"

    public var passed: Bool {
        credentials.allSatisfy { $0.problem == nil } && endpoints.allSatisfy { if case .accepted = $0.result { true } else { false } }
    }
}

public enum ProfileCheck {
    /// Resolves every credential, then calls each real provider (and the shared sandbox).
    public static func run(
        _ profile: Profile, path: String, environment: [String: String], registry: ProviderRegistry = .builtIn,
        resolver: CredentialResolver? = nil, timeout: Duration = .seconds(10)
    ) async -> ProfileCheckReport {
        var values = ProviderOptionValues(profile.options)
        var credentials: [ProfileCheckReport.Credential] = []
        for credential in (resolver ?? CredentialResolver(environment: environment)).resolveAll(profile.credentials) {
            switch credential.value {
            case .success(let value):
                values[credential.flag] = value
                credentials.append(.init(flag: credential.flag, source: credential.source.redactedDescription, problem: nil, characters: value.count))
            case .failure(let failure):
                credentials.append(.init(flag: credential.flag, source: credential.source.redactedDescription, problem: failure.problem, characters: nil))
            }
        }
        var controlToken: String?
        if let source = profile.sandboxControlToken {
            let field = ProfileCheckReport.controlTokenField
            do {
                let value = try (resolver ?? CredentialResolver(environment: environment)).value(of: field, from: source)
                controlToken = try SandboxControlTokenInput.checked(value, source: field)
                credentials.append(.init(flag: field, source: source.redactedDescription, problem: nil, characters: value.count))
            } catch let failure as CredentialResolver.Failure {
                credentials.append(.init(flag: field, source: source.redactedDescription, problem: failure.problem, characters: nil))
            } catch {
                credentials.append(.init(flag: field, source: source.redactedDescription, problem: "\(error)", characters: nil))
            }
        }
        let offered = registry.restricted(to: profile.providers).descriptors
        let given = values.withEnvironment(environment, options: registry.options)
        let secrets = offered.flatMap { $0.secrets(given, profile.sandboxURL) } + credentialValues(given, registry: registry) + (controlToken.map { [$0] } ?? [])
        var endpoints: [ProfileCheckReport.Endpoint] = []
        var onSandbox: [String] = []
        if let sandboxURL = profile.sandboxURL {
            endpoints.append(await sandboxHealth(sandboxURL, secrets: secrets, timeout: timeout))
            if let controlToken { endpoints.append(await sandboxControl(sandboxURL, token: controlToken, secrets: secrets, timeout: timeout)) }
        }
        for descriptor in offered {
            guard descriptor.pointsAtRealProvider(given), let probe = descriptor.credentialProbe else {
                onSandbox.append(descriptor.id)
                continue
            }
            if let problem = descriptor.optionProblem(given) {
                endpoints.append(.init(subject: descriptor.id, url: "", call: probe.call, result: .inconclusive("not called: \(problem)"), exchanges: []))
                continue
            }
            let http = ProviderHTTPClient(redactor: Redactor(secrets: secrets), timeout: timeout, retryPolicy: .standard.withMaxAttempts(1))
            let result = await probe.run(ProviderConnection(http: http, sandboxURL: nil, options: given))
            let exchanges = http.log.entries
            endpoints.append(.init(subject: descriptor.id, url: exchanges.first?.url ?? "", call: probe.call, result: result, exchanges: exchanges))
        }
        return ProfileCheckReport(
            profile: profile.name, path: path, credentials: credentials, endpoints: endpoints, onSandbox: profile.sandboxURL == nil ? onSandbox : [])
    }

    /// Every value given for a secret option, whatever the provider, for the redactor.
    private static func credentialValues(_ values: ProviderOptionValues, registry: ProviderRegistry) -> [String] {
        registry.options.filter(\.secret).compactMap { values[$0.flag] }
    }

    private static func sandboxHealth(_ baseURL: String, secrets: [String], timeout: Duration) async -> ProfileCheckReport.Endpoint {
        let http = ProviderHTTPClient(redactor: Redactor(secrets: secrets), timeout: timeout, retryPolicy: .standard.withMaxAttempts(1))
        let url = baseURL.withoutTrailingSlashes + "/sandbox/health"
        let result: CredentialProbeResult
        do {
            let response = try await http.send(ProviderRequest(method: "GET", url: url), provider: "sandbox")
            result = (200..<300).contains(response.status) ? .accepted("the shared sandbox answered") : .inconclusive("it answered HTTP \(response.status)")
        } catch {
            result = .inconclusive("\(error)")
        }
        return .init(subject: "sandbox", url: url, call: "GET /sandbox/health", result: result, exchanges: http.log.entries)
    }

    /// The profile's control token on a control route that changes nothing (the fault list).
    private static func sandboxControl(_ baseURL: String, token: String, secrets: [String], timeout: Duration) async -> ProfileCheckReport.Endpoint {
        let base = baseURL.withoutTrailingSlashes
        let http = ProviderHTTPClient(
            redactor: Redactor(secrets: secrets), timeout: timeout, retryPolicy: .standard.withMaxAttempts(1),
            sandboxRun: (baseURL: base, runID: "config-check"), sandboxControlToken: token)
        let url = base + "/sandbox/faults"
        let result: CredentialProbeResult
        do {
            let response = try await http.send(ProviderRequest(method: "GET", url: url), provider: "sandbox")
            result =
                switch response.status {
                case 200..<300: .accepted("the shared sandbox took the control token")
                case 401: .rejected("the shared sandbox refused the control token (HTTP 401); give the one `checkout sandbox` was started with")
                default: .inconclusive("it answered HTTP \(response.status)")
                }
        } catch {
            result = .inconclusive("\(error)")
        }
        return .init(subject: "sandbox", url: url, call: "GET /sandbox/faults with the control token", result: result, exchanges: http.log.entries)
    }
}
