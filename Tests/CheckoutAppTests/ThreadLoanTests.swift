@testable import CheckoutApp
import Foundation
import Synchronization
import Testing

/// The thread `checkout` lends to the screen's loop: jobs run there, one at a time, and a loan
/// that cannot be served is refused so the caller makes its own thread.
@Suite struct ThreadLoanTests {
    /// A thread serving `loan` until it finishes; `ended` is signalled when `serve()` returns.
    private static func serving(_ loan: ThreadLoan, ended: DispatchSemaphore, id: ThreadID = ThreadID()) -> Thread {
        Thread {
            id.value.withLock { $0 = pthread_self() }
            loan.serve()
            ended.signal()
        }
    }

    @Test func jobsRunOnTheServingThreadOneAfterAnother() async {
        let loan = ThreadLoan()
        loan.acceptJobs()
        let ended = DispatchSemaphore(value: 0)
        let servingThread = ThreadID()
        Self.serving(loan, ended: ended, id: servingThread).start()
        for round in 1...3 {
            let ranOn: pthread_t? = await withCheckedContinuation { continuation in
                // The job before resumed this test from inside itself, so the thread may still be
                // finishing it (a busy loan refuses): ask again until it takes the job, 10 s at most.
                let deadline = Date().addingTimeInterval(10)
                while !loan.lend({ continuation.resume(returning: pthread_self()) }) {
                    guard Date() < deadline else {
                        Issue.record("round \(round): the loan never took the job")
                        return continuation.resume(returning: nil)
                    }
                    sched_yield()
                }
            }
            #expect(servingThread.value.withLock { $0 } == ranOn, "round \(round) ran on another thread")
        }
        loan.finish()
        #expect(ended.wait(timeout: .now() + 10) == .success, "serve() did not return after finish()")
    }

    @Test func aLoanIsRefusedWhileTheThreadIsBusyOrBeforeItAccepts() async {
        let loan = ThreadLoan()
        #expect(!loan.lend {}, "lent before jobs were accepted")
        loan.acceptJobs()
        let ended = DispatchSemaphore(value: 0)
        Self.serving(loan, ended: ended).start()
        let release = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        #expect(loan.lend {
            started.signal()
            release.wait()
        })
        #expect(started.wait(timeout: .now() + 10) == .success)
        #expect(!loan.lend {}, "lent while the thread was busy")
        release.signal()
        loan.finish()
        #expect(ended.wait(timeout: .now() + 10) == .success)
        #expect(!loan.lend {}, "lent after finish()")
    }

    @Test func aJobLentBeforeServingStartsWaitsForIt() async {
        let loan = ThreadLoan()
        loan.acceptJobs()
        let ran = Mutex(false)
        #expect(loan.lend { ran.withLock { $0 = true } })
        let ended = DispatchSemaphore(value: 0)
        Self.serving(loan, ended: ended).start()
        loan.finish()
        #expect(ended.wait(timeout: .now() + 10) == .success)
        #expect(ran.withLock { $0 }, "the job lent first was dropped")
    }
}

/// The serving thread's id, as it records it.
private final class ThreadID: Sendable {
    let value = Mutex<pthread_t?>(nil)
}
