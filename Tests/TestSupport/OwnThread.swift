import Foundation

/// Runs `work` on a thread of its own and waits for it without holding a cooperative thread.
/// For long synchronous work in a test (scanning every source file with regular expressions
/// takes tens of seconds in a debug build): on the cooperative pool, as wide as the machine (two
/// threads here), it stalled every other test's tasks, the in-process sandboxes' answers too, and
/// tests waiting on those timed out.
public func onOwnThread<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}
