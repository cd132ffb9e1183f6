#!/usr/bin/env bash
# make install into a fresh PREFIX, the installed binary run from another folder (its
# resources, man page and completions found there), then make uninstall leaving nothing.
# `make test` runs it on the debug build (INSTALL_FROM=debug), so it needs no release build.
set -euo pipefail
cd "$(dirname "$0")/../.."
prefix=$(mktemp -d /tmp/checkout-install.XXXXXX)
elsewhere=$(mktemp -d /tmp/checkout-elsewhere.XXXXXX)
trap 'rm -rf "$prefix" "$elsewhere"' EXIT
fail() { echo "install journey: $*" >&2; exit 1; }

make --no-print-directory install PREFIX="$prefix" INSTALL_FROM=debug > "$elsewhere/install.log" || { cat "$elsewhere/install.log"; fail "make install failed"; }
for file in bin/checkout share/checkout/catalog.json share/checkout/scenarios/demo.yaml share/man/man1/checkout.1 \
  share/bash-completion/completions/checkout share/zsh/site-functions/_checkout share/fish/vendor_completions.d/checkout.fish; do
  [ -e "$prefix/$file" ] || fail "$file was not installed"
done

# From another folder, with the build folder's bundle out of reach of the lookup.
cd "$elsewhere"
version=$("$prefix/bin/checkout" --version)
case "$version" in *"(commit "*")"*) ;; *) fail "--version names no commit: $version" ;; esac
"$prefix/bin/checkout" run --customer approve > run.log || { cat run.log; fail "the installed binary's checkout did not approve"; }
grep -q "state: approved" run.log || fail "no approved state in: $(cat run.log)"
"$prefix/bin/checkout" run "$prefix/share/checkout/scenarios/happy-path.yaml" > scenario.log || { cat scenario.log; fail "the installed sample scenario did not run"; }
MANPAGER=cat man -l "$prefix/share/man/man1/checkout.1" | grep -q "EXIT CODES" || fail "the installed man page does not render"
bash -c "source '$prefix/share/bash-completion/completions/checkout' && complete -p checkout" > /dev/null || fail "the installed bash completion does not load"
cd - > /dev/null

make --no-print-directory uninstall PREFIX="$prefix" > "$elsewhere/uninstall.log"
left=$(find "$prefix" -type f)
[ -z "$left" ] || fail "make uninstall left: $left"
echo "install journey: installed $version under a fresh PREFIX, ran it from another folder, uninstalled leaving no file"
