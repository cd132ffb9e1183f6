import Hummingbird
import NIOCore

/// The request context of the sandbox: the basics plus the connection, which the `reset`
/// fault closes without answering.
public struct SandboxRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    public let channel: any Channel
    /// What the routes tell the request journal (set while it captures the request).
    var journalNote: JournalNote?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}
