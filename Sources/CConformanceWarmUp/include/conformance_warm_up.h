#ifndef CONFORMANCE_WARM_UP_H
#define CONFORMANCE_WARM_UP_H

/// Asks the Swift runtime each conformance question in `entries.h` once: "does this type
/// conform to this protocol?". The runtime caches every answer, and it finds each one by reading
/// all of the binary's 14,000 conformance records. Asked on an idle core while the command line
/// is parsed, the questions a session's start asks later (NIO checking each new channel
/// handler, the HTTP client's log metadata) are already answered when they come.
/// Returns how many entries were asked: an entry whose type or protocol is not in this binary
/// (a dependency renamed it) is skipped. Linux only; elsewhere it asks nothing and returns 0.
int conformance_warm_up_run(void);

/// 1 where `conformance_warm_up_run` asks (Linux), 0 where it asks nothing.
int conformance_warm_up_supported(void);

/// How many entries the list has.
int conformance_warm_up_entry_count(void);

#endif
