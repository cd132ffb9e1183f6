#!/usr/bin/env bash
# Build/ICUData/build.sh SWIFT DIR: ICU's data trimmed for the Linux release link (trim.py), as
# DIR/icudata.o, and DIR/link-flags, the `swift build` options that link it in place of the
# toolchain's. A toolchain without a static ICU archive leaves link-flags empty (the full data).
set -euo pipefail
cd "$(dirname "$0")/../.."
swift=${1:?swift}
out=${2:?output folder}
mkdir -p "$out"
resources=$("$swift" -print-target-info | sed -n 's/.*"runtimeResourcePath": *"\(.*\)".*/\1/p')
archive="${resources}_static/linux/lib_FoundationICU.a"
if [ ! -f "$archive" ]; then
  echo "icu-data: no $archive in this toolchain; the release links ICU's whole data" >&2
  : > "$out/link-flags"
  exit 0
fi
object="$PWD/$out/icudata.o"
# Made again when the trimmer or the toolchain's archive changed.
if [ -f "$object" ] && [ -s "$out/link-flags" ] && [ "$object" -nt Build/ICUData/trim.py ] && [ "$object" -nt "$archive" ]; then
  exit 0
fi
symbol=$(python3 Build/ICUData/trim.py --archive "$archive" --out "$out")
# The toolchain's own clang, beside the real swift (not a symlink to it in /usr/bin).
clang=$(dirname "$(readlink -f "$(command -v "$swift")")")/clang
[ -x "$clang" ] || clang=clang
"$clang" -c "$out/icudata.S" -o "$object"
# ICU's own symbol names the trimmed data; --defsym keeps the archive's member out of the link.
echo "-Xlinker --defsym=$symbol=checkout_icu_data -Xlinker $object" > "$out/link-flags"
