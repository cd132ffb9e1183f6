#!/usr/bin/env bash
# Docs/checkout.1 from the commands' definitions, by swift-argument-parser's manual generator
# (its generate-manual plugin, on the debug build). --check: fail when the committed page is stale.
set -euo pipefail
cd "$(dirname "$0")/.."
swift=${SWIFT:-swift}
# The plugin builds every product first (a no-op after make build) and writes one page a tool.
log=$(mktemp)
trap 'rm -f "$log" "$log.page"' EXIT
"$swift" package generate-manual --configuration debug > "$log" 2>&1 || { cat "$log" >&2; exit 1; }
raw=.build/plugins/GenerateManual/outputs/checkout/checkout.1
[ -f "$raw" ] || { echo "manual: the generator wrote no $raw" >&2; exit 1; }
# The commands' blank lines between paragraphs, as mdoc spells a paragraph break (man warns otherwise).
generated="$log.page"
sed 's/^$/.Pp/' "$raw" > "$generated"
# The page's date is the day it was made: compare without it.
undated() { grep -v '^\.Dd ' "$1"; }
if [ "${1:-}" = "--check" ]; then
  if ! diff -u <(undated Docs/checkout.1) <(undated "$generated") > "$log"; then
    echo "Docs/checkout.1 is stale: the commands changed; run make manual and commit it" >&2
    head -40 "$log" >&2
    exit 1
  fi
  echo "manual: Docs/checkout.1 matches the commands"
else
  cp "$generated" Docs/checkout.1
  echo "manual: wrote Docs/checkout.1 from $raw"
fi
