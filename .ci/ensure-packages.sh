#!/usr/bin/env bash
# Installs the Debian packages the build and tests need, when they are missing.
# As root (or with password-less sudo) it installs them; otherwise it prints the exact command.
# Then it makes the Python virtual environment the Adyen conformance test runs the official
# library in (.build/python with Adyen==16.0.0), when it is not there yet.
set -euo pipefail

packages=(libncurses-dev libqrencode-dev pkg-config python3 python3-venv tmux zbar-tools zlib1g-dev)
adyen_library="Adyen==16.0.0"
venv="$(cd "$(dirname "$0")/.." && pwd)/.build/python"

# The venv for Tests/Conformance/adyen_conformance.py; a no-op (no network) when it is ready.
ensure_python_venv() {
  if [ -x "$venv/bin/python" ] && "$venv/bin/python" -c 'import importlib.metadata as m, sys; sys.exit(m.version("Adyen") != "16.0.0")' 2>/dev/null; then
    return 0
  fi
  echo "Creating $venv with $adyen_library (for the Adyen conformance test)" >&2
  rm -rf "$venv"
  if ! python3 -m venv "$venv" >&2; then
    echo "Could not create $venv: install Debian's python3-venv (apt-get install -y python3-venv) and run make test again." >&2
    exit 1
  fi
  if ! "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "$adyen_library" >&2; then
    echo "Could not pip install $adyen_library into $venv (is PyPI reachable?)." >&2
    rm -rf "$venv"
    exit 1
  fi
}

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -eq 0 ]; then
  ensure_python_venv
  exit 0
fi

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
ensure_python_venv
