import Foundation

/// A folder of a test's own under the system's temporary folder, for the files a run writes;
/// `remove()` (in a `defer`) takes it and everything in it away.
public struct ScratchFolder: Sendable {
    public let url: URL

    /// A new, empty folder named `prefix-UUID`.
    public init(_ prefix: String) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The path of `name` in the folder.
    public func path(_ name: String) -> String {
        url.appendingPathComponent(name).path
    }

    public func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
