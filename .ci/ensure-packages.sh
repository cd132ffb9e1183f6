#!/usr/bin/env bash
# Installs the Debian packages the build and tests need, when they are missing.
# As root (or with password-less sudo) it installs them; otherwise it prints the exact command.
# With --with-bench-tools it adds hyperfine and wrk (make bench, make test).
# With --with-python (make test) it then makes the Python virtual environment the conformance
# tests run the providers' official libraries in (.build/python with Adyen==16.0.0,
# squareup==46.0.0.20260916, global-open-sdk-python==1.7.1), the JSON Schema tests their
# validator (jsonschema==4.26.0), the contract run schemathesis (with hypothesis pinned, so a
# fixed seed generates the same cases), the client-request checks openapi-core, and the browser
# checks selenium, when it is not ready yet.
# With --with-browser (make test) it adds Debian's Chromium and its driver (chromium,
# chromium-driver) for Tests/Browser. When they are missing and cannot be installed here (no root,
# no password-less sudo), it says so and goes on (the browser checks then print a skip) unless CI is
# set: in CI a missing browser is a failure.
# With --with-postgres (make test) it adds Debian's PostgreSQL server (postgresql: initdb, pg_ctl) for
# the PostgreSQL store's tests, which make a throw-away cluster (.ci/postgres-cluster.sh). Like the
# browser, it is needed in CI and optional elsewhere (those tests then print a skip).
set -euo pipefail

# The Python venv is for the conformance tests only: `make test` passes --with-python; `make run` does not need it.
with_python=false
with_bench_tools=false
with_browser=false
with_postgres=false
for flag in "$@"; do
  case "$flag" in
    --with-python) with_python=true ;;
    # `make bench` (and the quick check in `make test`) times with hyperfine and loads with wrk.
    --with-bench-tools) with_bench_tools=true ;;
    # `make test`'s browser checks (Tests/Browser/pages_test.py) drive headless Chromium.
    --with-browser) with_browser=true ;;
    # `make test`'s PostgreSQL store tests start a throw-away cluster.
    --with-postgres) with_postgres=true ;;
    *) echo "ensure-packages.sh: unknown flag $flag (use --with-python, --with-bench-tools, --with-browser, --with-postgres)" >&2; exit 64 ;;
  esac
done

# man-db: `man -l` renders the man page in the tests.
packages=(libncurses-dev libqrencode-dev man-db pkg-config python3 python3-venv tmux zbar-tools zlib1g-dev)
# The official libraries, pinned: Tests/Conformance/adyen_conformance.py and square_conformance.py
# run them unchanged. Bump a pin deliberately (and re-run both conformance tests).
# jsonschema: Tests/Tools/validate_json_schema.py checks the commands' --json against Schemas/.
# schemathesis, hypothesis: `make contract` (Tests/Conformance/contract). openapi-core: our client's
# requests and the sandbox's webhooks against the documents. selenium: Tests/Browser.
# selenium stays at 4.50.0: 4.52.0 needs a certifi newer than PyPI's mirror here has.
python_libraries=("Adyen==16.0.0" "squareup==46.0.0.20260916" "global-open-sdk-python==1.7.1" "jsonschema==4.26.0"
  "schemathesis==4.32.5" "hypothesis==6.170.17" "openapi-core==0.23.1" "selenium==4.50.0")
venv="$(cd "$(dirname "$0")/.." && pwd)/.build/python"

# Whether the venv's python runs and has every pinned library at exactly its pinned version.
python_venv_ready() {
  [ -x "$venv/bin/python" ] && "$venv/bin/python" - "${python_libraries[@]}" 2>/dev/null <<'PYTHON'
import importlib.metadata as metadata, sys
for pin in sys.argv[1:]:
    name, version = pin.split("==")
    try:
        installed = metadata.version(name)
    except metadata.PackageNotFoundError:
        sys.exit(1)
    if installed != version:
        sys.exit(1)
PYTHON
}

# The venv for Tests/Conformance/*_conformance.py; a no-op (no network) when it is ready. A venv
# that is there but lacks a pin (or has another version) gets the pins installed into it; one
# that is missing or broken is made anew.
ensure_python_venv() {
  if python_venv_ready; then
    return 0
  fi
  local created=0
  if ! [ -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import sys' 2>/dev/null; then
    echo "Creating $venv (for the providers' conformance tests and the JSON Schema tests)" >&2
    rm -rf "$venv"
    if ! python3 -m venv "$venv" >&2; then
      echo "Could not create $venv: install Debian's python3-venv (apt-get install -y python3-venv) and run make test again." >&2
      rm -rf "$venv"
      exit 1
    fi
    created=1
  fi
  echo "Installing ${python_libraries[*]} into $venv (for the providers' conformance tests and the JSON Schema tests)" >&2
  if ! "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "${python_libraries[@]}" >&2; then
    echo "Could not pip install ${python_libraries[*]} into $venv (is PyPI reachable?)." >&2
    if [ "$created" -eq 1 ]; then rm -rf "$venv"; fi
    exit 1
  fi
  if ! python_venv_ready; then
    echo "After pip install, $venv still does not have ${python_libraries[*]}: check $venv/bin/python -m pip list." >&2
    exit 1
  fi
}

# macOS: Homebrew's formulae instead of Debian's packages (the same tools under their own names;
# man comes with macOS). Not yet run on a Mac: written from Homebrew's formula names.
if [ "$(uname -s)" = Darwin ]; then
  # bash: macOS's own is 3.2, older than the completion script and the test scripts need.
  formulae=(ncurses qrencode zlib pkg-config tmux zbar bash)
  if $with_bench_tools; then formulae+=(hyperfine wrk); fi
  # The pinned libraries need Python 3.10 or newer; the Command Line Tools' python3 is 3.9.
  if $with_python; then formulae+=(python); fi
  if ! command -v brew >/dev/null 2>&1; then
    echo "Homebrew is needed on macOS (https://brew.sh); then: brew install ${formulae[*]}" >&2
    exit 1
  fi
  brew_missing=()
  for formula in "${formulae[@]}"; do
    brew list --formula "$formula" >/dev/null 2>&1 || brew_missing+=("$formula")
  done
  if [ ${#brew_missing[@]} -gt 0 ]; then
    echo "Installing missing Homebrew formulae: ${brew_missing[*]}" >&2
    if ! brew install "${brew_missing[@]}" >&2; then
      echo "Could not install them. Install them by hand:  brew install ${brew_missing[*]}" >&2
      exit 1
    fi
  fi
  if $with_postgres && ! command -v initdb >/dev/null 2>&1 && ! brew list --formula postgresql@16 >/dev/null 2>&1; then
    echo "Installing Homebrew's postgresql@16 (for the PostgreSQL store's tests)" >&2
    brew install postgresql@16 >&2 || echo "Could not install postgresql@16: make test skips the PostgreSQL store's tests (brew install postgresql@16)." >&2
  fi
  if $with_browser && ! command -v chromedriver >/dev/null 2>&1; then
    echo "Chromium's driver is not installed: make test skips the browser checks (brew install --cask chromium chromedriver)." >&2
  fi
  if $with_python; then ensure_python_venv; fi
  exit 0
fi

if $with_bench_tools; then packages+=(hyperfine wrk); fi
# The browser's packages: needed in CI, optional elsewhere (the browser checks skip without them).
browser_packages=()
if $with_browser; then browser_packages=(chromium chromium-driver); fi
# Likewise PostgreSQL: needed in CI, optional elsewhere.
if $with_postgres; then browser_packages+=(postgresql); fi
is_installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
missing=()
for package in "${packages[@]}"; do
  is_installed "$package" || missing+=("$package")
done
missing_browser=()
for package in ${browser_packages[@]+"${browser_packages[@]}"}; do
  is_installed "$package" || missing_browser+=("$package")
done
all_missing=(${missing[@]+"${missing[@]}"} ${missing_browser[@]+"${missing_browser[@]}"})
if [ ${#all_missing[@]} -eq 0 ]; then
  if $with_python; then ensure_python_venv; fi
  exit 0
fi

# Outside CI, a browser that cannot be installed only skips the browser checks.
browser_unavailable() {
  local command=$1
  echo "Not installed and cannot be installed here: ${missing_browser[*]}: make test skips the browser checks (chromium) and the PostgreSQL store's tests (postgresql)." >&2
  echo "Install it with:  sudo $command" >&2
}
in_ci=false
if [ -n "${CI:-}" ]; then in_ci=true; fi

command="apt-get update && apt-get install -y --no-install-recommends ${all_missing[*]}"
if [ "$(id -u)" -eq 0 ]; then
  runner=(bash -c)
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  runner=(sudo bash -c)
else
  if [ ${#missing[@]} -eq 0 ] && ! $in_ci; then
    browser_unavailable "$command"
    if $with_python; then ensure_python_venv; fi
    exit 0
  fi
  echo "Missing system packages: ${all_missing[*]}" >&2
  echo "Install them with:  sudo $command" >&2
  exit 1
fi
echo "Installing missing system packages: ${all_missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
if ! "${runner[@]}" "$command" >&2; then
  if [ ${#missing[@]} -eq 0 ] && ! $in_ci; then
    browser_unavailable "$command"
  else
    echo "Could not install ${all_missing[*]}. Install them by hand:  sudo $command" >&2
    exit 1
  fi
fi
if $with_python; then ensure_python_venv; fi
