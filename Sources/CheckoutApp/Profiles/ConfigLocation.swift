import Foundation

/// Where the config file lives: `$XDG_CONFIG_HOME/checkout/config.yaml`, or
/// `~/.config/checkout/config.yaml` when XDG_CONFIG_HOME is unset or not absolute (as the XDG
/// Base Directory specification says).
public enum ConfigLocation {
    public static let environmentProfile = "CHECKOUT_PROFILE"

    public static func file(environment: [String: String]) -> String {
        directory(environment: environment) + "/config.yaml"
    }

    public static func directory(environment: [String: String]) -> String {
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") { return xdg + "/checkout" }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + "/.config/checkout"
    }

    /// `~/…` with the home folder written out, for paths in the config file.
    public static func expandingTilde(_ path: String, environment: [String: String]) -> String {
        guard path == "~" || path.hasPrefix("~/") else { return path }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + path.dropFirst()
    }
}
