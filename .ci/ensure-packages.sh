#!/usr/bin/env bash
# Installs the Debian packages the build and tests need, when they are missing.
# As root (or with password-less sudo) it installs them; otherwise it prints the exact command.
set -euo pipefail

packages=(libncurses-dev libqrencode-dev pkg-config tmux zbar-tools zlib1g-dev)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0

command="apt-get update && apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" -eq 0 ]; then
  runner=(bash -c)
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  runner=(sudo bash -c)
else
  echo "Missing system packages: ${missing[*]}" >&2
  echo "Install them with:  sudo $command" >&2
  exit 1
fi
echo "Installing missing system packages: ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
if ! "${runner[@]}" "$command" >&2; then
  echo "Could not install ${missing[*]}. Install them by hand:  sudo $command" >&2
  exit 1
fi
