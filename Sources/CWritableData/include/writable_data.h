#ifndef WRITABLE_DATA_H
#define WRITABLE_DATA_H

/// Makes the executable's `.bss` (its zero-initialized data: the Swift runtime's metadata caches,
/// lazy globals) resident and writable in one call. Left to first use, each of its pages is
/// first mapped to the shared zero page when read, then copied on the first write, and once the
/// process has threads on other cores that copy also interrupts those cores to flush their
/// address translations: a few hundred such faults in a command's first milliseconds. Finds the
/// section in the executable's own section table (`/proc/self/exe`). Returns the bytes made
/// resident: 0 where there is nothing to do (not Linux, a kernel without MADV_POPULATE_WRITE,
/// no such section). Never fails the process.
long writable_data_prefault(void);

/// 1 where `writable_data_prefault` acts (Linux), 0 where it does nothing.
int writable_data_supported(void);

/// The same on a thread of its own, started now and left to finish (the caller goes on at
/// once). Returns 1 when the thread started, 0 otherwise.
int writable_data_prefault_in_background(void);

#endif
