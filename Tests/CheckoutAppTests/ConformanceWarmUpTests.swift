@testable import CheckoutApp
import Testing

/// The conformance questions asked ahead at a headless start (`make warm-up-list` records them).
@Suite struct ConformanceWarmUpTests {
    @Test func onlyHeadlessSessionsAndSandboxesAskAhead() {
        #expect(ConformanceWarmUp.startsHeadlessSession(["run", "--provider", "cashapp"]))
        #expect(ConformanceWarmUp.startsHeadlessSession(["sandbox", "--port", "0"]))
        // The screen's first frame needs the other core for the catalog.
        #expect(!ConformanceWarmUp.startsHeadlessSession([]))
        #expect(!ConformanceWarmUp.startsHeadlessSession(["screen"]))
        #expect(!ConformanceWarmUp.startsHeadlessSession(["demo"]))
        #expect(!ConformanceWarmUp.startsHeadlessSession(["replay", "run.har"]))
        #expect(!ConformanceWarmUp.startsHeadlessSession(["--provider", "run"]))
        #expect(!ConformanceWarmUp.startsHeadlessSession(["providers"]))
        #expect(!ConformanceWarmUp.startsHeadlessSession(["run", "--help"]))
        #expect(!ConformanceWarmUp.startsHeadlessSession(["sandbox", "-h"]))
    }

    /// `make warm-up-list` records a start without the warm-up: with it, every question would
    /// already be answered, and the list would come out empty.
    @Test func onlyAZeroSwitchesItOff() {
        #expect(ConformanceWarmUp.isSwitchedOff(by: "0"))
        #expect(!ConformanceWarmUp.isSwitchedOff(by: nil))
        #expect(!ConformanceWarmUp.isSwitchedOff(by: "1"))
        #expect(!ConformanceWarmUp.isSwitchedOff(by: ""))
    }

    /// The list names types and protocols this program has: a dependency that renamed most of
    /// them would leave the warm-up asking nothing (each missing symbol only drops its entry).
    /// Four in five: this debug build loads the standard library and Foundation as shared
    /// libraries, which do not export the accessors of their internal types (22 of the 116
    /// entries recorded today); the release binary links them in, and resolves every one.
    @Test func theRecordedQuestionsAreAskableInThisProgram() {
        let entries = ConformanceWarmUp.entryCount
        #expect(entries >= 50, "the list has \(entries) entries: run `make warm-up-list`")
        let asked = ConformanceWarmUp.runNow()
        if ConformanceWarmUp.asksOnThisPlatform {
            #expect(asked * 5 >= entries * 4, "\(asked) of \(entries) entries resolve in this program: run `make warm-up-list`")
        } else {
            #expect(asked == 0)
        }
    }
}
