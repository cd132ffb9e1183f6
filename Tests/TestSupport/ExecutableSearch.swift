import Foundation

/// A program found the way a shell finds it: the first executable of that name on PATH (so
/// Homebrew's /opt/homebrew/bin serves on a Mac as /usr/bin does on Debian).
public enum ExecutableSearch {
    public static func onPath(_ name: String, path: String? = ProcessInfo.processInfo.environment["PATH"]) -> URL? {
        (path ?? "/usr/bin:/bin").split(separator: ":")
            .map { URL(fileURLWithPath: String($0)).appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }
}
