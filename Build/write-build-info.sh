#!/usr/bin/env bash
# Writes the commit `checkout --version` names into Sources/CBuildInfo/build_commit.h, only when
# it changed (so an unchanged tree neither recompiles nor relinks).
set -euo pipefail
cd "$(dirname "$0")/.."
commit=$(git describe --always --dirty --abbrev=12 --exclude='*' 2>/dev/null || echo unknown)
header=Sources/CBuildInfo/build_commit.h
line="#define CHECKOUT_BUILD_COMMIT \"$commit\""
if [ ! -f "$header" ] || [ "$(cat "$header")" != "$line" ]; then
  echo "$line" > "$header"
fi
