import CheckoutApp
import CheckoutModel
import CWritableData
import Dispatch
import Sandbox
import TerminalUI

/// The process's entry: a synchronous main that runs the command in a task and lends it this
/// thread (for the screen's loop) until it ends. An async main hands the main thread to
/// `dispatch_main`, whose `pthread_exit` unwinds it through the binary's frame tables: about
/// 4.5 MB of them read into memory, and milliseconds of a core, just as the first frame is being
/// drawn. Nothing here runs on the main actor.
@main
enum CheckoutEntry {
    static func main() {
        StartupTrace.mark("entry")
        let arguments = Array(CommandLine.arguments.dropFirst())
        // The runtime's zero-initialized data made resident on another thread (writable_data.h):
        // a headless checkout ends about a millisecond sooner. Not for the screen or the demo:
        // the first frame was later for the extra thread, and the demo held 1.8 MB more.
        if ConformanceWarmUp.startsHeadlessSession(arguments) { _ = writable_data_prefault_in_background() }
        // A headless session's start asks the Swift runtime questions each costing a read of
        // every conformance record: asked ahead on another thread while the command line is parsed.
        ConformanceWarmUp.start(for: arguments)
        // A standalone sandbox runs for days under load: its memory must stay flat.
        if arguments.first == "sandbox" { AllocatorArenas.limitToCores() }
        ThreadLoan.main.acceptJobs()
        Task.detached {
            await CheckoutCommand.runCommandLine()
            ThreadLoan.main.finish()
        }
        // While the task parses the command line, this thread readies what comes next: the cart
        // most commands open (the task waits for it rather than reading it twice), then curses
        // when plain `checkout` can only be the screen (on a terminal).
        Catalog.readBundledAhead()
        if arguments.isEmpty { CursesAhead.open() }
        // Then it runs the screen's loop, when the command has one.
        ThreadLoan.main.serve()
    }
}
