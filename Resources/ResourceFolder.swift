import Foundation

/// Where the shipped files are: beside the executable, where SwiftPM puts the bundle, or in
/// `PREFIX/share/checkout` after `make install`. Looked up from /proc/self/exe without making
/// a Bundle (Bundle.main and Bundle.module cost two milliseconds of the first frame, and
/// Bundle.module traps when the build folder it remembers is gone).
enum ResourceFolder {
    static let bundleName = "TerminalCheckout_CheckoutResources.resources"

    /// The first candidate holding catalog.json, resolved once.
    static let located: URL? =
        candidates.first { FileManager.default.fileExists(atPath: $0.appendingPathComponent("catalog.json").path) } ?? platformBundle

    /// macOS has no /proc: its bundle is found the usual way.
    private static var platformBundle: URL? {
        #if os(macOS)
            Bundle.module.resourceURL
        #else
            nil
        #endif
    }

    /// Beside the executable (a build folder), then the installed share folder.
    static var candidates: [URL] {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments.first ?? ""
        let binFolder = URL(fileURLWithPath: executable).deletingLastPathComponent()
        return [
            binFolder.appendingPathComponent(bundleName),
            binFolder.deletingLastPathComponent().appendingPathComponent("share/checkout"),
        ]
    }

    /// For messages: where it looked.
    static var searched: String { "looked in " + candidates.map(\.path).joined(separator: " and ") }
}
