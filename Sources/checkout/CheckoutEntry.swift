import Dispatch

/// The process's entry: a synchronous main that waits for the command on a semaphore. An
/// async main hands the main thread to `dispatch_main`, whose `pthread_exit` unwinds it through
/// the binary's frame tables: about 4.5 MB of them read into memory, and milliseconds of a core,
/// just as the first frame is being drawn. Nothing here runs on the main actor.
@main
enum CheckoutEntry {
    static func main() {
        let finished = DispatchSemaphore(value: 0)
        Task.detached {
            await CheckoutCommand.runCommandLine()
            finished.signal()
        }
        finished.wait()
    }
}
