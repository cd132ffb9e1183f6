#ifndef WRITABLE_DATA_H
#define WRITABLE_DATA_H

/// Makes the executable's `.data` and `.bss` resident and writable now, in one call, while the
/// process has a single thread. Left to the first write of each page, every page the Swift
/// runtime first reads and later writes (its metadata caches, lazy globals, class metadata) is
/// copied on a page fault that, once other threads run on other cores, also interrupts those
/// cores to flush their address translations. Finds the two sections in the executable's own
/// section table (`/proc/self/exe`). Returns the bytes made resident: 0 where there is nothing
/// to do (not Linux, a kernel without MADV_POPULATE_WRITE, no such sections). Never fails.
long writable_data_prefault(void);

#endif
