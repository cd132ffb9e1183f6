#include "conformance_warm_up.h"
#include <stddef.h>

#if defined(__linux__)

// A type's metadata accessor, as Swift calls it (a request in, the metadata and its state out).
typedef struct {
    const void *metadata;
    size_t state;
} warm_up_metadata_response;

// The runtime's own entry point (exported, part of Swift's ABI).
extern const void *swift_conformsToProtocol(const void *type, const void *protocol);

// Each type's accessor and each protocol's descriptor, by its mangled symbol. Weak: a symbol a
// dependency no longer has is null, and its entries are skipped (the list is a hint, never a
// requirement to link).
#define WARM_UP_TYPE(index, symbol) \
    extern warm_up_metadata_response warm_up_type_##index(size_t request) __asm__(symbol) __attribute__((weak, swiftcall));
#define WARM_UP_PROTOCOL(index, symbol) extern const char warm_up_protocol_##index __asm__(symbol) __attribute__((weak));
#define WARM_UP_PAIR(type, protocol)
#include "entries.h"
#undef WARM_UP_TYPE
#undef WARM_UP_PROTOCOL
#undef WARM_UP_PAIR

int conformance_warm_up_run(void) {
    int asked = 0;
#define WARM_UP_TYPE(index, symbol)
#define WARM_UP_PROTOCOL(index, symbol)
#define WARM_UP_PAIR(type, protocol)                                                                  \
    if (warm_up_type_##type && &warm_up_protocol_##protocol) {                                      \
        (void)swift_conformsToProtocol(warm_up_type_##type(0).metadata, &warm_up_protocol_##protocol); \
        asked += 1;                                                                                   \
    }
#include "entries.h"
#undef WARM_UP_TYPE
#undef WARM_UP_PROTOCOL
#undef WARM_UP_PAIR
    return asked;
}

int conformance_warm_up_supported(void) { return 1; }

#else

int conformance_warm_up_run(void) { return 0; }

int conformance_warm_up_supported(void) { return 0; }

#endif

int conformance_warm_up_entry_count(void) {
    int count = 0;
#define WARM_UP_TYPE(index, symbol)
#define WARM_UP_PROTOCOL(index, symbol)
#define WARM_UP_PAIR(type, protocol) count += 1;
#include "entries.h"
#undef WARM_UP_TYPE
#undef WARM_UP_PROTOCOL
#undef WARM_UP_PAIR
    return count;
}
