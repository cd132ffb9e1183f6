import Dispatch
import Synchronization

/// Runs the sandbox's async code to its end from libFuzzer's synchronous callback. The memory
/// store never waits, so this costs a task and a semaphore per input.
public func blocking<Value: Sendable>(_ work: @escaping @Sendable () async -> Value) -> Value {
    let done = DispatchSemaphore(value: 0)
    let result = Mutex<Value?>(nil)
    Task {
        let value = await work()
        result.withLock { $0 = value }
        done.signal()
    }
    done.wait()
    return result.withLock { $0! }
}
