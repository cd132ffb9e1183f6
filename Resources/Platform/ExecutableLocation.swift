import Foundation

/// Where the running executable is, and what SwiftPM calls its resource bundle there: the two
/// things the resource lookup needs that differ between the platforms.
enum ExecutableLocation {
    /// The executable's own path, symbolic links resolved where the platform says so cheaply.
    static var path: String? {
        #if os(Linux)
            // Read without making a Bundle: Bundle.main costs two milliseconds of the first frame.
            try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        #else
            Bundle.main.executablePath
        #endif
    }

    /// The folder inside the build folder that holds the copied resources: a flat `.resources`
    /// folder on Linux, a `.bundle` on macOS (its files under Contents/Resources when SwiftPM
    /// makes it a full bundle).
    static func resourceFolders(named name: String, in folder: URL) -> [URL] {
        #if os(macOS)
            let bundle = folder.appendingPathComponent(name + ".bundle")
            return [bundle.appendingPathComponent("Contents/Resources"), bundle]
        #else
            return [folder.appendingPathComponent(name + ".resources")]
        #endif
    }

    /// The last resort on macOS: the bundle found the usual way (Bundle.module traps when the
    /// build folder it remembers is gone, so only after every other place was looked in).
    static var platformBundle: URL? {
        #if os(macOS)
            Bundle.module.resourceURL
        #else
            nil
        #endif
    }
}
