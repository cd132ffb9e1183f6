import Foundation

/// Where the shipped files are: beside the executable, where SwiftPM puts the bundle, or in
/// `PREFIX/share/checkout` after `make install`, from the executable's own path.
enum ResourceFolder {
    static let bundleName = "TerminalCheckout_CheckoutResources"

    /// The first candidate holding catalog.json, resolved once.
    static let located: URL? =
        candidates.first { FileManager.default.fileExists(atPath: $0.appendingPathComponent("catalog.json").path) } ?? ExecutableLocation.platformBundle

    /// Beside the executable (a build folder), then the installed share folder.
    static var candidates: [URL] {
        let executable = ExecutableLocation.path ?? CommandLine.arguments.first ?? ""
        let binFolder = URL(fileURLWithPath: executable).deletingLastPathComponent()
        return ExecutableLocation.resourceFolders(named: bundleName, in: binFolder) + [
            binFolder.deletingLastPathComponent().appendingPathComponent("share/checkout")
        ]
    }

    /// For messages: where it looked.
    static var searched: String { "looked in " + candidates.map(\.path).joined(separator: " and ") }
}
