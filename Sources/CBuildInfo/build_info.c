#include "build_info.h"

// `make` writes build_commit.h (git-ignored) with the commit before it builds; a plain
// `swift build` without it still compiles.
#if __has_include("build_commit.h")
#include "build_commit.h"
#endif
#ifndef CHECKOUT_BUILD_COMMIT
#define CHECKOUT_BUILD_COMMIT "unknown"
#endif

const char *checkout_build_commit(void) { return CHECKOUT_BUILD_COMMIT; }
