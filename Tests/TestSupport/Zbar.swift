import Foundation

/// Runs the real `zbarimg` decoder, so tests prove a scanner reads what we draw.
public enum Zbar {
    /// `zbarimg` from PATH, or nil when it is not installed.
    public static let executable: URL? = ExecutableSearch.onPath("zbarimg")

    /// In CI the Makefile installs zbar-tools, so a missing decoder is a failure there,
    /// not a reason to skip.
    public static var isCI: Bool {
        !(ProcessInfo.processInfo.environment["CI"] ?? "").isEmpty
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Decodes the image at `file`; returns zbarimg's `--raw` text without its final newline.
    public static func decode(_ executable: URL, file: URL) async throws -> String {
        let child = try ChildProcess([executable.path, "--raw", "-q", file.path])
        let status = await child.exit(timeout: 30)
        guard status == 0 else {
            throw Failure(description: "zbarimg exited \(status) (4 = no code found): \(child.stderr)")
        }
        var text = child.stdout
        if text.hasSuffix("\n") { text.removeLast() }
        return text
    }
}
