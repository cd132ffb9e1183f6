import Dispatch
import Synchronization

/// A terminal in memory, for driving the UI loop in tests: a test thread queues keys and
/// resizes while the loop's thread reads them, and waits for the frames the loop draws.
public final class InMemoryTerminal: TerminalBackend, Sendable {
    private struct State {
        var width: Int
        var height: Int
        var pending: [TerminalInput] = []
        var lastScreen: Screen?
        var frameCount = 0
        var isClosed = false
        var copied: [String] = []
        /// Threads waiting for a change, each woken once (then it looks again).
        var waiters: [Int: DispatchSemaphore] = [:]
        var nextWaiter = 0

        mutating func changed() {
            for waiter in waiters.values { waiter.signal() }
            waiters.removeAll()
        }
    }

    private let state: Mutex<State>
    public let hasColors: Bool

    public init(width: Int = 80, height: Int = 24, colors: Bool = false) {
        state = Mutex(State(width: width, height: height))
        hasColors = colors
    }

    public var size: (width: Int, height: Int) { state.withLock { ($0.width, $0.height) } }

    /// The last screen drawn, if any.
    public var lastScreen: Screen? { state.withLock { $0.lastScreen } }

    /// How many times `draw` was called.
    public var frameCount: Int { state.withLock { $0.frameCount } }

    public var isClosed: Bool { state.withLock { $0.isClosed } }

    /// What `copyToClipboard` was given, in order.
    public var copiedTexts: [String] { state.withLock { $0.copied } }

    /// Queues input for `read`.
    public func send(_ input: TerminalInput) {
        state.withLock { state in
            state.pending.append(input)
            state.changed()
        }
    }

    /// Queues key presses for `read`, in order.
    public func send(keys: [Key]) {
        state.withLock { state in
            state.pending += keys.map(TerminalInput.key)
            state.changed()
        }
    }

    /// Changes the size and queues `.resize`, as a terminal does when its window changes.
    public func resize(width: Int, height: Int) {
        state.withLock { state in
            (state.width, state.height) = (width, height)
            state.pending.append(.resize)
            state.changed()
        }
    }

    /// The next queued input; when there is none, waits up to `timeoutMilliseconds`
    /// (a negative timeout waits until input comes) and returns nil if none came.
    public func read(timeoutMilliseconds: Int32) -> TerminalInput? {
        let timeout: Duration? = timeoutMilliseconds < 0 ? nil : .milliseconds(timeoutMilliseconds)
        return wait(timeout: timeout) { state in
            state.pending.isEmpty ? nil : state.pending.removeFirst()
        }
    }

    /// Keeps `screen` as the last frame and counts it.
    public func draw(_ screen: Screen) {
        state.withLock { state in
            state.lastScreen = screen
            state.frameCount += 1
            state.changed()
        }
    }

    public func copyToClipboard(_ text: String) {
        state.withLock { state in
            state.copied.append(text)
            state.changed()
        }
    }

    public func close() {
        state.withLock { state in
            state.isClosed = true
            state.changed()
        }
    }

    /// The last frame drawn, once its text contains `text`; nil when none did within `timeout`.
    public func waitForScreen(containing text: String, timeout: Duration) -> Screen? {
        waitForScreen(timeout: timeout) { $0.text.contains(text) }
    }

    /// The last frame drawn, once it satisfies `condition`; nil when none did within `timeout`.
    /// Looks at the frame drawn last when called, then at each newer one.
    public func waitForScreen(timeout: Duration, where condition: (Screen) -> Bool) -> Screen? {
        wait(timeout: timeout) { state in
            guard let screen = state.lastScreen, condition(screen) else { return nil }
            return screen
        }
    }

    /// Runs `check` under the lock until it returns a value, sleeping on a semaphore between
    /// changes; nil when `timeout` (nil: no limit) passes first.
    private func wait<Value: Sendable>(timeout: Duration?, _ check: (inout State) -> Value?) -> Value? {
        let clock = ContinuousClock()
        let deadline = timeout.map { clock.now.advanced(by: $0) }
        let wakeUp = DispatchSemaphore(value: 0)
        var ticket: Int?
        while true {
            let found: Value? = state.withLock { state in
                if let ticket { state.waiters[ticket] = nil }
                if let value = check(&state) { return value }
                let next = state.nextWaiter
                state.nextWaiter += 1
                state.waiters[next] = wakeUp
                ticket = next
                return nil
            }
            if let found { return found }
            guard let deadline else {
                wakeUp.wait()
                continue
            }
            let remaining = clock.now.duration(to: deadline)
            if remaining <= .zero || wakeUp.wait(timeout: .now() + .nanoseconds(remaining.wholeNanoseconds)) == .timedOut {
                return state.withLock { state in
                    if let ticket { state.waiters[ticket] = nil }
                    return check(&state)
                }
            }
        }
    }
}

extension Duration {
    /// Whole nanoseconds, capped to what `DispatchTimeInterval` takes.
    fileprivate var wholeNanoseconds: Int {
        let (seconds, attoseconds) = components
        guard seconds < Int64(Int.max / 1_000_000_000) - 1 else { return Int.max }
        return Int(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
