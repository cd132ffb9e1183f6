import CheckoutApp
import CheckoutModel
import Dispatch
import Sandbox
import TerminalUI

/// The process's entry: a synchronous main that waits for the command on a semaphore. An
/// async main hands the main thread to `dispatch_main`, whose `pthread_exit` unwinds it through
/// the binary's frame tables: about 4.5 MB of them read into memory, and milliseconds of a core,
/// just as the first frame is being drawn. Nothing here runs on the main actor.
@main
enum CheckoutEntry {
    static func main() {
        StartupTrace.mark("entry")
        // A headless session's start asks the Swift runtime questions each costing a read of
        // every conformance record: asked ahead on the other core while the command line is
        // parsed (before the catalog's decode, which the session needs later than those).
        let arguments = Array(CommandLine.arguments.dropFirst())
        ConformanceWarmUp.start(for: arguments)
        // Most commands open the cart: decode it on the other core from the first moment (the
        // detached task below takes half a millisecond to start).
        Catalog.prefetchBundled()
        // A standalone sandbox runs for days under load: its memory must stay flat.
        if arguments.first == "sandbox" { AllocatorArenas.limitToCores() }
        let finished = DispatchSemaphore(value: 0)
        Task.detached {
            await CheckoutCommand.runCommandLine()
            finished.signal()
        }
        finished.wait()
    }
}
