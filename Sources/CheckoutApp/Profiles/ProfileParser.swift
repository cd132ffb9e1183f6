import Foundation
import Sandbox
import Yams

/// A config file that cannot be used says where and why, as scenario files do.
public typealias ConfigFileError = ScenarioError

/// Reads `config.yaml` from Yams' node tree, checking every field where it is written: keys,
/// provider ids and option flags against the registry, one source per credential, and that
/// a file holding a secret itself is readable by its owner alone.
public enum ProfileParser {
    static let topKeys = ["profiles"]
    static let profileKeys = ["description", "providers", "sandbox_url", "sandbox_store", "options", "credentials", "sandbox_control_token"]
    static let sourceKeys = ["env", "file", "command", "value"]
    /// A config file is a few profiles; anything larger is not one.
    static let maximumBytes = 256 * 1024

    /// The file at `path`; nil when there is none (no profiles: the embedded sandbox).
    public static func load(path: String, registry: ProviderRegistry = .builtIn) throws(ConfigFileError) -> ProfileConfiguration? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let data: Data
        do { data = try InputFile.contents(of: path, kind: "the config file", limit: maximumBytes) } catch {
            throw ConfigFileError(file: path, line: 0, column: 0, field: "", problem: error.text)
        }
        let text: String
        do { text = try InputFile.text(data) } catch {
            throw ConfigFileError(file: path, line: error.line, column: error.column, field: "", problem: error.text)
        }
        let configuration = try parse(text, file: path, registry: registry)
        try requirePrivateMode(configuration, path: path)
        return configuration
    }

    public static func parse(_ text: String, file: String, registry: ProviderRegistry = .builtIn) throws(ConfigFileError) -> ProfileConfiguration {
        let root: Node
        do {
            guard let node = try Yams.compose(yaml: text) else { return ProfileConfiguration(path: file, profiles: []) }
            root = node
        } catch {
            throw ConfigFileError(file: file, line: 1, column: 1, field: "", problem: "cannot be read as YAML: \(error)")
        }
        return try ProfileReader(file: file, registry: registry).configuration(root)
    }

    /// A secret written in the file needs a file only its owner can read.
    static func requirePrivateMode(_ configuration: ProfileConfiguration, path: String) throws(ConfigFileError) {
        let inline = configuration.profiles.flatMap { profile in
            var fields: [String] = []
            if case .inline? = profile.sandboxControlToken { fields.append("profiles.\(profile.name).sandbox_control_token") }
            return fields + profile.credentials.sorted { $0.key < $1.key }.compactMap { flag, source in
                if case .inline = source { return "profiles.\(profile.name).credentials.\(flag)" }
                return nil
            }
        }
        guard let first = inline.first else { return }
        var status = stat()
        guard stat(path, &status) == 0 else { return }
        let mode = status.st_mode & 0o777
        guard mode & 0o077 != 0 else { return }
        throw ConfigFileError(
            file: path, line: 0, column: 0, field: first,
            problem: "holds a secret, yet the file is mode \(String(mode, radix: 8)), which lets others read it; "
                + "run `chmod 600 \(path)`, or take the secret from env, file or command instead")
    }
}

/// Walks the node tree, checking each field where it is written.
private struct ProfileReader {
    let file: String
    let registry: ProviderRegistry

    func configuration(_ root: Node) throws(ConfigFileError) -> ProfileConfiguration {
        let top = try pairs(root, "", allowed: ProfileParser.topKeys, what: "the config file")
        guard let profilesNode = top.first(where: { $0.key == "profiles" })?.value else {
            return ProfileConfiguration(path: file, profiles: [])
        }
        if profilesNode.null != nil { return ProfileConfiguration(path: file, profiles: []) }
        guard case .mapping(let mapping) = profilesNode else {
            throw error(at: profilesNode, "profiles", "expected a mapping of profile names to profiles, found \(profilesNode.kindDescription)")
        }
        var profiles: [Profile] = []
        for (key, value) in mapping {
            let name = try text(key, "profiles")
            guard Self.isProfileName(name) else {
                throw error(at: key, "profiles.\(name)", "a profile name is 1 to 64 letters, digits, '-', '_' or '.'")
            }
            profiles.append(try profile(name, value))
        }
        return ProfileConfiguration(path: file, profiles: profiles)
    }

    static func isProfileName(_ name: String) -> Bool {
        (1...64).contains(name.count) && name.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "-_.".unicodeScalars.contains($0)) }
    }

    private func profile(_ name: String, _ node: Node) throws(ConfigFileError) -> Profile {
        let path = "profiles.\(name)"
        var profile = Profile(name: name)
        if node.null != nil { return profile }
        let given = try pairs(node, path, allowed: ProfileParser.profileKeys, what: "a profile")
        // In a fixed order: which providers it offers decides which options it may set.
        for key in ProfileParser.profileKeys {
            guard let value = given.first(where: { $0.key == key })?.value else { continue }
            let field = "\(path).\(key)"
            switch key {
            case "description": profile.description = try text(value, field)
            case "providers": profile.providers = try providers(value, field)
            case "sandbox_url":
                let url = try text(value, field)
                guard ProviderOptionValues.isWebURL(url) else {
                    throw error(at: value, field, "\"\(url)\" is not an http(s) URL with a host; give what `checkout sandbox` printed, e.g. http://127.0.0.1:8080")
                }
                profile.sandboxURL = url
            case "sandbox_store":
                let url = try text(value, field)
                if let problem = SandboxStoreURL.problem(url) { throw error(at: value, field, problem) }
                profile.sandboxStore = url
            case "sandbox_control_token": profile.sandboxControlToken = try source(value, field)
            // Any provider's options: one provider's calls may use another's (a provider that
            // pays through another takes that one's options too).
            case "options": profile.options = try options(value, field, offered: registry.options)
            default: profile.credentials = try credentials(value, field, offered: registry.options)
            }
        }
        return profile
    }

    private func providers(_ node: Node, _ field: String) throws(ConfigFileError) -> [String] {
        guard case .sequence(let items) = node, !items.isEmpty else {
            throw error(at: node, field, "expected a list of provider ids, e.g. [\(registry.ids.prefix(2).joined(separator: ", "))]; the providers are \(registry.ids.joined(separator: ", "))")
        }
        var ids: [String] = []
        for item in items {
            let id = try text(item, field)
            guard registry.descriptor(id) != nil else {
                throw error(at: item, field, "\"\(id)\" is not a provider; use \(registry.ids.joined(separator: ", "))")
            }
            if !ids.contains(id) { ids.append(id) }
        }
        return ids
    }

    private func options(_ node: Node, _ field: String, offered: [ProviderOption]) throws(ConfigFileError) -> [String: String] {
        let plain = offered.filter { !$0.secret }
        var values: [String: String] = [:]
        for (flag, value) in try pairs(node, field, allowed: offered.map(\.flag), what: "option values by flag") {
            guard let option = plain.first(where: { $0.flag == flag }) else {
                throw error(at: value, "\(field).\(flag)", "is a secret: put it under credentials with env, file or command, e.g. `\(flag): { env: \(offered.first { $0.flag == flag }?.environment ?? "NAME") }`")
            }
            let written = try text(value, "\(field).\(flag)")
            if option.isSwitch {
                guard ["true", "false"].contains(written) else { throw error(at: value, "\(field).\(flag)", "must be true or false") }
                if written == "true" { values[flag] = "true" }
            } else {
                values[flag] = written
            }
        }
        return values
    }

    private func credentials(_ node: Node, _ field: String, offered: [ProviderOption]) throws(ConfigFileError) -> [String: CredentialSource] {
        var sources: [String: CredentialSource] = [:]
        let valued = offered.filter { !$0.isSwitch }
        for (flag, value) in try pairs(node, field, allowed: valued.map(\.flag), what: "credential sources by option flag") {
            sources[flag] = try source(value, "\(field).\(flag)")
        }
        return sources
    }

    /// `{ env: NAME }`, `{ file: PATH }`, `{ command: CMD }` or `{ value: SECRET }`; plain text is a value.
    private func source(_ node: Node, _ field: String) throws(ConfigFileError) -> CredentialSource {
        if case .scalar = node { return .inline(try text(node, field)) }
        let given = try pairs(node, field, allowed: ProfileParser.sourceKeys, what: "one of env, file, command or value")
        guard given.count == 1, let (kind, valueNode) = given.first else {
            throw error(at: node, field, "give exactly one of env, file, command or value")
        }
        let value = try text(valueNode, "\(field).\(kind)")
        switch kind {
        case "env":
            guard !value.isEmpty, value.unicodeScalars.allSatisfy({ $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "_") }) else {
                throw error(at: valueNode, "\(field).env", "\"\(value)\" is not an environment variable name (letters, digits and _)")
            }
            return .environment(value)
        case "file": return .file(value)
        case "command": return .command(value)
        default: return .inline(value)
        }
    }

    // MARK: Nodes

    private func pairs(_ node: Node, _ path: String, allowed: [String], what: String) throws(ConfigFileError) -> [(key: String, value: Node)] {
        guard case .mapping(let mapping) = node else { throw error(at: node, path, "expected \(what) (a mapping of keys), found \(node.kindDescription)") }
        var result: [(key: String, value: Node)] = []
        for (keyNode, value) in mapping {
            let key = try text(keyNode, path)
            guard allowed.contains(key) else {
                let field = path.isEmpty ? key : "\(path).\(key)"
                throw error(at: keyNode, field, "unknown key \"\(key)\"; \(path.isEmpty ? "the file" : path) takes \(allowed.joined(separator: ", "))")
            }
            guard !result.contains(where: { $0.key == key }) else { throw error(at: keyNode, path, "the key \"\(key)\" appears twice; keep one") }
            result.append((key, value))
        }
        return result
    }

    private func text(_ node: Node, _ path: String) throws(ConfigFileError) -> String {
        guard case .scalar(let scalar) = node else { throw error(at: node, path, "expected text, found \(node.kindDescription)") }
        guard node.null == nil || scalar.style != .plain else { throw error(at: node, path, "is empty") }
        return scalar.string
    }

    private func error(at node: Node, _ path: String, _ problem: String) -> ConfigFileError {
        ConfigFileError(file: file, line: node.mark?.line ?? 1, column: node.mark?.column ?? 1, field: path, problem: problem)
    }
}
