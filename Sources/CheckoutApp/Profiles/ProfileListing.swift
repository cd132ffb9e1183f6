import Foundation
import ProviderClients

/// How `checkout config list|show|check` print profiles: text for people, JSON for scripts
/// (Schemas/config-*.schema.json). Secrets never appear: sources are named, inline values
/// are counted, not shown.
public enum ProfileListing {
    // MARK: list

    public static func listText(_ configuration: ProfileConfiguration?, path: String) -> String {
        guard let configuration, !configuration.profiles.isEmpty else {
            return "No profiles: \(path) \(configuration == nil ? "does not exist" : "names none"); `checkout config init` writes an example."
        }
        let width = configuration.names.map(\.count).max() ?? 0
        var lines = ["Profiles in \(path):"]
        for profile in configuration.profiles {
            let name = profile.name.padding(toLength: width, withPad: " ", startingAt: 0)
            lines.append("  \(name)  \(summary(profile))")
        }
        return lines.joined(separator: "\n")
    }

    static func summary(_ profile: Profile) -> String {
        var parts = [profile.providers.map { $0.joined(separator: ", ") } ?? "all providers"]
        if let sandbox = profile.sandboxURL { parts.append("sandbox \(sandbox)") }
        if let description = profile.description { parts.append(description) }
        return parts.joined(separator: " · ")
    }

    public static func listJSON(_ configuration: ProfileConfiguration?, path: String) -> String {
        let profiles = (configuration?.profiles ?? []).map { profile -> [String: Any] in
            var entry: [String: Any] = ["name": profile.name, "providers": profile.providers ?? NSNull()]
            entry["description"] = profile.description ?? NSNull()
            entry["sandbox_url"] = profile.sandboxURL ?? NSNull()
            return entry
        }
        return json(["path": path, "exists": configuration != nil, "profiles": profiles])
    }

    // MARK: show

    public static func showText(_ profile: Profile, path: String, registry: ProviderRegistry = .builtIn) -> String {
        var lines = ["Profile \(profile.name) (\(path))"]
        if let description = profile.description { lines.append("  description: \(description)") }
        lines.append("  providers:   \(profile.providers?.joined(separator: ", ") ?? "all (\(registry.ids.joined(separator: ", ")))")")
        lines.append("  sandbox:     \(profile.sandboxURL ?? "embedded, unless a provider's URL points at the real one")")
        if let token = profile.sandboxControlToken { lines.append("  sandbox control token from \(token.redactedDescription) (never shown)") }
        if !profile.options.isEmpty {
            lines.append("  options:")
            for (flag, value) in profile.options.sorted(by: { $0.key < $1.key }) { lines.append("    --\(flag) \(value)") }
        }
        if !profile.credentials.isEmpty {
            lines.append("  credentials (values never shown):")
            for (flag, source) in profile.credentials.sorted(by: { $0.key < $1.key }) { lines.append("    --\(flag) from \(source.redactedDescription)") }
        }
        return lines.joined(separator: "\n")
    }

    public static func showJSON(_ profile: Profile, path: String) -> String {
        let credentials = profile.credentials.sorted { $0.key < $1.key }.map { flag, source -> [String: Any] in
            var entry: [String: Any] = ["flag": flag, "source": source.kind]
            switch source {
            case .environment(let name): entry["env"] = name
            case .file(let path): entry["file"] = path
            case .command(let command): entry["command"] = command
            case .inline(let value): entry["characters"] = value.count
            }
            return entry
        }
        return json([
            "path": path, "name": profile.name, "description": profile.description ?? NSNull(), "providers": profile.providers ?? NSNull(),
            "sandbox_url": profile.sandboxURL ?? NSNull(), "options": profile.options, "credentials": credentials,
        ])
    }

    // MARK: check

    public static func checkText(_ report: ProfileCheckReport) -> String {
        var lines = ["Checking profile \(report.profile) (\(report.path))"]
        if !report.credentials.isEmpty { lines.append("  credentials:") }
        for credential in report.credentials {
            // Options are named by their flag; the sandbox's control token by its profile key.
            let name = credential.flag == ProfileCheckReport.controlTokenField ? credential.flag : "--\(credential.flag)"
            if let problem = credential.problem {
                lines.append("    ✗ \(name) from \(credential.source): \(problem)")
            } else {
                lines.append("    ✓ \(name) from \(credential.source): resolved (\(credential.characters ?? 0) characters)")
            }
        }
        for endpoint in report.endpoints {
            lines.append("  \(endpoint.subject): \(endpoint.call)")
            for exchange in endpoint.exchanges { lines += exchangeLines(exchange) }
            switch endpoint.result {
            case .accepted(let how): lines.append("    ✓ accepted: \(how)")
            case .rejected(let why): lines.append("    ✗ rejected: \(why)")
            case .inconclusive(let why): lines.append("    ✗ unconfirmed: \(why)")
            }
        }
        if !report.onSandbox.isEmpty {
            lines.append("  on the embedded sandbox (nothing to check): \(report.onSandbox.joined(separator: ", "))")
        }
        lines.append(report.passed ? "OK: profile \(report.profile) is ready." : "FAILED: profile \(report.profile) is not ready; see ✗ above.")
        return lines.joined(separator: "\n")
    }

    /// One exchange as the HTTP pane's detail shows it, headers redacted, bodies cut short.
    static func exchangeLines(_ exchange: HTTPExchange) -> [String] {
        let answer = exchange.status.map { "HTTP \($0)" } ?? "no answer (\(exchange.failure ?? "transport failure"))"
        var lines = ["    \(exchange.method) \(exchange.url) → \(answer) in \(exchange.durationMilliseconds) ms"]
        lines += exchange.requestHeaders.map { "      > \($0.name): \($0.value)" }
        lines += exchange.responseHeaders.map { "      < \($0.name): \($0.value)" }
        if let body = exchange.responseBody { lines.append("      < " + shortened(body)) }
        return lines
    }

    private static func shortened(_ body: String) -> String {
        let flat = body.replacingOccurrences(of: "\n", with: " ")
        return flat.count > 300 ? String(flat.prefix(300)) + "…" : flat
    }

    public static func checkJSON(_ report: ProfileCheckReport) -> String {
        let credentials = report.credentials.map { credential -> [String: Any] in
            ["flag": credential.flag, "source": credential.source, "resolved": credential.problem == nil, "problem": credential.problem ?? NSNull()]
        }
        let endpoints = report.endpoints.map { endpoint -> [String: Any] in
            let (verdict, detail): (String, String) =
                switch endpoint.result {
                case .accepted(let how): ("accepted", how)
                case .rejected(let why): ("rejected", why)
                case .inconclusive(let why): ("inconclusive", why)
                }
            let exchanges = endpoint.exchanges.map { exchange -> [String: Any] in
                ["method": exchange.method, "url": exchange.url, "status": exchange.status ?? NSNull(), "duration_ms": exchange.durationMilliseconds]
            }
            return ["subject": endpoint.subject, "call": endpoint.call, "verdict": verdict, "detail": detail, "exchanges": exchanges]
        }
        return json([
            "profile": report.profile, "path": report.path, "passed": report.passed, "credentials": credentials, "endpoints": endpoints,
            "on_sandbox": report.onSandbox,
        ])
    }

    static func json(_ object: [String: Any]) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
